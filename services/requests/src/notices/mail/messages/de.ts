import type { Catalogue } from "./en.js";

export const de: Catalogue = {
  greeting: "Hallo {name},",
  "invitation.subject": "Bitte unterschreiben: {title}",
  "invitation.lead":
    "Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu unterschreiben.",
  "resend.subject": "Bitte unterschreiben: {title}",
  "resend.lead":
    "Hier ist ein neuer Link, um <b>{title}</b> zu unterschreiben{hasSender, select, yes { (angefordert von {sender})} other {}}.",
  "reminder.subject": "Erinnerung: Bitte unterschreiben Sie {title}",
  "reminder.lead":
    "Zur Erinnerung: Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu unterschreiben.",
  "expiryWarning.subject": "Läuft bald ab: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { von {sender}} other {}} läuft bald ab und wartet noch auf Sie.",
  "recipientChanged.subject": "Bitte unterschreiben: {title}",
  "recipientChanged.lead":
    "Ihre Angaben in dieser Anfrage wurden aktualisiert. Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu unterschreiben.",
  "completed.subject": "Abgeschlossen: {title}",
  "completed.lead": "Alle haben <b>{title}</b> unterschrieben.",
  "completed.attached":
    "Das unterschriebene Dokument ist angehängt. Die letzte Seite ist das Abschlusszertifikat, und das Dokument ist mit einer digitalen Signatur versiegelt, die jede spätere Änderung erkennbar macht.",
  "completed.tooLarge":
    "Das unterschriebene Dokument ist zu groß für einen Anhang; laden Sie es über den Link unten herunter. Die letzte Seite ist das Abschlusszertifikat.",
  "action.sign": "Prüfen und unterschreiben",
  "action.download": "Unterschriebenes Dokument herunterladen",
  "review.subject": "Bitte prüfen: {title}",
  "review.reminderSubject": "Erinnerung: Bitte prüfen Sie {title}",
  "review.lead":
    "Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu prüfen. Sie müssen die Dokumente nur öffnen.",
  "review.reminderLead":
    "Eine Erinnerung: Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu prüfen.",
  "action.review": "Dokumente ansehen",
  "approve.subject": "Bitte genehmigen: {title}",
  "approve.reminderSubject": "Erinnerung: Bitte genehmigen Sie {title}",
  "approve.lead":
    "Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu genehmigen. Sie unterschreiben nichts: Genehmigen oder ablehnen.",
  "approve.reminderLead":
    "Eine Erinnerung: Sie wurden{hasSender, select, yes { von {sender}} other {}} gebeten, <b>{title}</b> zu genehmigen.",
  "action.approve": "Prüfen und genehmigen",
  senderMessage: "Nachricht vom Absender:",
  reminderNote: "Hinweis zu dieser Erinnerung:",
  orOpen: "Oder öffnen Sie diese Adresse:",
  expires: "Die Anfrage läuft am {date} ab.",
  personal:
    "Dieser Link ist persönlich: Jeder, der ihn hat, kann in Ihrem Namen unterschreiben. Leiten Sie diese E-Mail daher nicht weiter.",
  personalView:
    "Dieser Link ist persönlich: Wer ihn hat, kann die Dokumente in Ihrem Namen öffnen. Leiten Sie diese E-Mail daher nicht weiter.",
  signOff: "— Countersign",
  sentBy: "Gesendet von Countersign",
  "code.subject": "{code} ist Ihr Code für {title}",
  "code.lead":
    "Ihr Code zum Öffnen von <b>{title}</b>{hasSender, select, yes { von {sender}} other {}} lautet:",
  "code.works": "Er gilt 10 Minuten lang in dem Fenster, in dem Sie ihn angefordert haben.",
  "code.stranger":
    "Wenn Sie keinen Code angefordert haben, hat möglicherweise jemand Ihren Link zum Unterschreiben: Geben Sie diesen Code nicht weiter, und informieren Sie den Absender.",
};
