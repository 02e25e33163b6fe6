import type { Catalogue } from "./en.js";

export const nl: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Te veel pogingen",
  "tooMany.body":
    "Er zijn te veel ondertekeningslinks geopend vanaf uw adres. Wacht {seconds, plural, one {# seconde} other {# seconden}} en open de link opnieuw.",
  "invalid.title": "Deze ondertekeningslink is niet geldig",
  "invalid.body":
    "Controleer of u het volledige adres uit de e-mail hebt geopend, of vraag de afzender om de link opnieuw te versturen.",
  "gone.title": "Deze link werkt niet meer",
  "unavailable.title": "Ondertekenen is momenteel niet mogelijk",
  "unavailable.body": "We konden uw document niet openen. Probeer de link over een minuut opnieuw.",
};
