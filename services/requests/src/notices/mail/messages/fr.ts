import type { Catalogue } from "./en.js";

export const fr: Catalogue = {
  greeting: "Bonjour {name},",
  "invitation.subject": "Veuillez signer : {title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} vous demande} other {Il vous est demandé}} de signer <b>{title}</b>.",
  "resend.subject": "Veuillez signer : {title}",
  "resend.lead":
    "Voici un nouveau lien pour signer <b>{title}</b>{hasSender, select, yes {, à la demande de {sender}} other {}}.",
  "reminder.subject": "Rappel : veuillez signer {title}",
  "reminder.lead":
    "Petit rappel : {hasSender, select, yes {{sender} vous demande} other {il vous est demandé}} de signer <b>{title}</b>.",
  "expiryWarning.subject": "Expire bientôt : {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { de {sender}} other {}} expire bientôt et vous attend encore.",
  "recipientChanged.subject": "Veuillez signer : {title}",
  "recipientChanged.lead":
    "Vos coordonnées pour cette demande ont été mises à jour. {hasSender, select, yes {{sender} vous demande} other {Il vous est demandé}} de signer <b>{title}</b>.",
  "completed.subject": "Finalisé : {title}",
  "completed.lead": "Tout le monde a signé <b>{title}</b>.",
  "completed.attached":
    "Le document signé est joint. Sa dernière page est le certificat de finalisation, et il est scellé par une signature numérique qui révèle toute modification ultérieure.",
  "completed.tooLarge":
    "Le document signé est trop volumineux pour être joint ; téléchargez-le à l’aide du lien ci-dessous. Sa dernière page est le certificat de finalisation.",
  "action.sign": "Vérifier et signer",
  "action.download": "Télécharger le document signé",
  "review.subject": "Merci de consulter : {title}",
  "review.reminderSubject": "Rappel : merci de consulter {title}",
  "review.lead":
    "{hasSender, select, yes {{sender} vous demande} other {Il vous est demandé}} de consulter <b>{title}</b>. Il vous suffit d’ouvrir les documents.",
  "review.reminderLead":
    "Rappel : {hasSender, select, yes {{sender} vous demande} other {il vous est demandé}} de consulter <b>{title}</b>.",
  "action.review": "Consulter les documents",
  "approve.subject": "Merci d’approuver : {title}",
  "approve.reminderSubject": "Rappel : merci d’approuver {title}",
  "approve.lead":
    "{hasSender, select, yes {{sender} vous demande} other {Il vous est demandé}} d’approuver <b>{title}</b>. Vous ne signez rien : approuvez ou refusez.",
  "approve.reminderLead":
    "Rappel : {hasSender, select, yes {{sender} vous demande} other {il vous est demandé}} d’approuver <b>{title}</b>.",
  "action.approve": "Consulter et approuver",
  senderMessage: "Message de l’expéditeur :",
  reminderNote: "Note jointe à ce rappel :",
  orOpen: "Ou ouvrez cette adresse :",
  expires: "La demande expire le {date}.",
  personal:
    "Ce lien est personnel : toute personne qui le détient peut signer en votre nom. Ne transférez donc pas cet e-mail.",
  personalView:
    "Ce lien est personnel : toute personne qui le possède peut ouvrir les documents en votre nom ; ne transférez donc pas cet e-mail.",
  signOff: "— Countersign",
  sentBy: "Envoyé par Countersign",
  "code.subject": "{code} est votre code pour {title}",
  "code.lead":
    "Voici votre code pour ouvrir <b>{title}</b>{hasSender, select, yes {, envoyé par {sender}} other {}} :",
  "code.works": "Il est valable 10 minutes, dans la fenêtre où vous l’avez demandé.",
  "code.stranger":
    "Si vous n’avez pas demandé de code, quelqu’un dispose peut-être de votre lien de signature : ne communiquez pas ce code et prévenez l’expéditeur.",
};
