import type { Catalogue } from "./en.js";

export const fr: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Trop de tentatives",
  "tooMany.body":
    "Trop de liens de signature ont été ouverts depuis votre adresse. Attendez {seconds, plural, one {# seconde} other {# secondes}}, puis ouvrez à nouveau le lien.",
  "invalid.title": "Ce lien de signature n’est pas valide",
  "invalid.body":
    "Vérifiez que vous avez ouvert l’adresse complète figurant dans l’e-mail, ou demandez à l’expéditeur de l’envoyer à nouveau.",
  "gone.title": "Ce lien ne fonctionne plus",
  "unavailable.title": "La signature est momentanément indisponible",
  "unavailable.body": "Nous n’avons pas pu ouvrir votre document. Réessayez le lien dans une minute.",
};
