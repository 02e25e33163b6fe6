import type { Catalogue } from "./en.js";

export const it: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Troppi tentativi",
  "tooMany.body":
    "Sono stati aperti troppi link di firma dal suo indirizzo. Attenda {seconds, plural, one {# secondo} other {# secondi}} e apra di nuovo il link.",
  "invalid.title": "Questo link di firma non è valido",
  "invalid.body":
    "Verifichi di aver aperto l’indirizzo completo contenuto nell’e-mail, oppure chieda al mittente di inviarlo di nuovo.",
  "gone.title": "Questo link non funziona più",
  "unavailable.title": "La firma non è disponibile al momento",
  "unavailable.body": "Non è stato possibile aprire il documento. Riprovi ad aprire il link tra un minuto.",
};
