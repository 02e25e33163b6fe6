import type { Catalogue } from "./en.js";

export const nl: Catalogue = {
  greeting: "Beste {name},",
  "invitation.subject": "Ter ondertekening: {title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} vraagt u} other {U wordt gevraagd}} <b>{title}</b> te ondertekenen.",
  "resend.subject": "Ter ondertekening: {title}",
  "resend.lead":
    "Dit is een nieuwe link om <b>{title}</b> te ondertekenen{hasSender, select, yes {, op verzoek van {sender}} other {}}.",
  "reminder.subject": "Herinnering: {title} ondertekenen",
  "reminder.lead":
    "Ter herinnering: {hasSender, select, yes {{sender} vraagt u} other {u wordt gevraagd}} <b>{title}</b> te ondertekenen.",
  "expiryWarning.subject": "Verloopt binnenkort: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { van {sender}} other {}} verloopt binnenkort en wacht nog op u.",
  "recipientChanged.subject": "Ter ondertekening: {title}",
  "recipientChanged.lead":
    "Uw gegevens bij dit verzoek zijn bijgewerkt. {hasSender, select, yes {{sender} vraagt u} other {U wordt gevraagd}} <b>{title}</b> te ondertekenen.",
  "completed.subject": "Voltooid: {title}",
  "completed.lead": "Iedereen heeft <b>{title}</b> ondertekend.",
  "completed.attached":
    "Het ondertekende document is bijgevoegd. De laatste pagina is het voltooiingscertificaat, en het document is verzegeld met een digitale handtekening die elke latere wijziging zichtbaar maakt.",
  "completed.tooLarge":
    "Het ondertekende document is te groot om bij te voegen; download het via de link hieronder. De laatste pagina is het voltooiingscertificaat.",
  "action.sign": "Bekijken en ondertekenen",
  "action.download": "Ondertekend document downloaden",
  "review.subject": "Ter inzage: {title}",
  "review.reminderSubject": "Herinnering: ter inzage {title}",
  "review.lead":
    "{hasSender, select, yes {{sender} vraagt u} other {U wordt gevraagd}} <b>{title}</b> in te zien. U hoeft alleen de documenten te openen.",
  "review.reminderLead":
    "Herinnering: {hasSender, select, yes {{sender} vraagt u} other {u wordt gevraagd}} <b>{title}</b> in te zien.",
  "action.review": "Documenten bekijken",
  "approve.subject": "Ter goedkeuring: {title}",
  "approve.reminderSubject": "Herinnering: ter goedkeuring {title}",
  "approve.lead":
    "{hasSender, select, yes {{sender} vraagt u} other {U wordt gevraagd}} <b>{title}</b> goed te keuren. U ondertekent niets: keur goed of wijs af.",
  "approve.reminderLead":
    "Herinnering: {hasSender, select, yes {{sender} vraagt u} other {u wordt gevraagd}} <b>{title}</b> goed te keuren.",
  "action.approve": "Bekijken en goedkeuren",
  senderMessage: "Bericht van de afzender:",
  reminderNote: "Opmerking bij deze herinnering:",
  orOpen: "Of open dit adres:",
  expires: "Het verzoek verloopt op {date}.",
  personal:
    "Deze link is persoonlijk: iedereen die de link heeft, kan namens u ondertekenen. Stuur deze e-mail dus niet door.",
  personalView:
    "Deze link is persoonlijk: iedereen die hem heeft, kan de documenten namens u openen. Stuur deze e-mail dus niet door.",
  signOff: "— Countersign",
  sentBy: "Verzonden door Countersign",
  "code.subject": "{code} is uw code voor {title}",
  "code.lead": "Uw code om <b>{title}</b>{hasSender, select, yes { van {sender}} other {}} te openen is:",
  "code.works": "De code is 10 minuten geldig, in het venster waarin u hem hebt aangevraagd.",
  "code.stranger":
    "Hebt u geen code aangevraagd? Dan heeft iemand misschien uw ondertekeningslink: deel deze code niet en laat het de afzender weten.",
};
