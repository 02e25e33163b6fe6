import type { Catalogue } from "./en.js";

export const es: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Demasiados intentos",
  "tooMany.body":
    "Se han abierto demasiados enlaces de firma desde su dirección. Espere {seconds, plural, one {# segundo} other {# segundos}} y vuelva a abrir el enlace.",
  "invalid.title": "Este enlace de firma no es válido",
  "invalid.body":
    "Compruebe que abrió la dirección completa del correo electrónico o pida al remitente que lo vuelva a enviar.",
  "gone.title": "Este enlace ya no funciona",
  "unavailable.title": "La firma no está disponible en este momento",
  "unavailable.body": "No pudimos abrir su documento. Vuelva a probar el enlace dentro de un minuto.",
};
