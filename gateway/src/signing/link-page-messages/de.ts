import type { Catalogue } from "./en.js";

export const de: Catalogue = {
  brand: "Countersign",
  "tooMany.title": "Zu viele Versuche",
  "tooMany.body":
    "Von Ihrer Adresse wurden zu viele Links zum Unterschreiben geöffnet. Warten Sie {seconds, plural, one {# Sekunde} other {# Sekunden}}, und öffnen Sie den Link dann erneut.",
  "invalid.title": "Dieser Link zum Unterschreiben ist ungültig",
  "invalid.body":
    "Prüfen Sie, ob Sie die vollständige Adresse aus der E-Mail geöffnet haben, oder bitten Sie den Absender, sie erneut zu senden.",
  "gone.title": "Dieser Link funktioniert nicht mehr",
  "unavailable.title": "Unterschreiben ist derzeit nicht möglich",
  "unavailable.body":
    "Ihr Dokument konnte nicht geöffnet werden. Versuchen Sie den Link in einer Minute erneut.",
};
