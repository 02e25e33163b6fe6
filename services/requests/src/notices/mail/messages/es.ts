import type { Catalogue } from "./en.js";

export const es: Catalogue = {
  greeting: "Hola, {name}:",
  "invitation.subject": "Firma pendiente: {title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} le ha pedido} other {Se le ha pedido}} que firme <b>{title}</b>.",
  "resend.subject": "Firma pendiente: {title}",
  "resend.lead":
    "Este es un nuevo enlace para firmar <b>{title}</b>{hasSender, select, yes {, a petición de {sender}} other {}}.",
  "reminder.subject": "Recordatorio: por favor, firme {title}",
  "reminder.lead":
    "Le recordamos que {hasSender, select, yes {{sender} le ha pedido} other {se le ha pedido}} que firme <b>{title}</b>.",
  "expiryWarning.subject": "Vence pronto: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { de {sender}} other {}} vence pronto y todavía le espera.",
  "recipientChanged.subject": "Firma pendiente: {title}",
  "recipientChanged.lead":
    "Se han actualizado sus datos en esta solicitud. {hasSender, select, yes {{sender} le ha pedido} other {Se le ha pedido}} que firme <b>{title}</b>.",
  "completed.subject": "Completado: {title}",
  "completed.lead": "Todos han firmado <b>{title}</b>.",
  "completed.attached":
    "Se adjunta el documento firmado. Su última página es el certificado de finalización, y está sellado con una firma digital que pone de manifiesto cualquier cambio posterior.",
  "completed.tooLarge":
    "El documento firmado es demasiado grande para adjuntarlo; descárguelo con el enlace de abajo. Su última página es el certificado de finalización.",
  "action.sign": "Revisar y firmar",
  "action.download": "Descargar el documento firmado",
  "review.subject": "Revise, por favor: {title}",
  "review.reminderSubject": "Recordatorio: revise {title}",
  "review.lead":
    "{hasSender, select, yes {{sender} le ha pedido} other {Se le ha pedido}} que revise <b>{title}</b>. Solo tiene que abrir los documentos.",
  "review.reminderLead":
    "Recordatorio: {hasSender, select, yes {{sender} le ha pedido} other {se le ha pedido}} que revise <b>{title}</b>.",
  "action.review": "Revisar los documentos",
  "approve.subject": "Apruebe, por favor: {title}",
  "approve.reminderSubject": "Recordatorio: apruebe {title}",
  "approve.lead":
    "{hasSender, select, yes {{sender} le ha pedido} other {Se le ha pedido}} que apruebe <b>{title}</b>. No firma nada: apruebe o rechace.",
  "approve.reminderLead":
    "Recordatorio: {hasSender, select, yes {{sender} le ha pedido} other {se le ha pedido}} que apruebe <b>{title}</b>.",
  "action.approve": "Revisar y aprobar",
  senderMessage: "Mensaje del remitente:",
  reminderNote: "Nota de este recordatorio:",
  orOpen: "O abra esta dirección:",
  expires: "La solicitud caduca el {date}.",
  personal:
    "Este enlace es personal: cualquier persona que lo tenga puede firmar en su nombre, así que no reenvíe este correo electrónico.",
  personalView:
    "Este enlace es personal: cualquiera que lo tenga puede abrir los documentos en su nombre, así que no reenvíe este correo electrónico.",
  signOff: "— Countersign",
  sentBy: "Enviado por Countersign",
  "code.subject": "{code} es su código para {title}",
  "code.lead": "Su código para abrir <b>{title}</b>{hasSender, select, yes {, de {sender},} other {}} es:",
  "code.works": "Es válido durante 10 minutos, en la ventana en la que lo solicitó.",
  "code.stranger":
    "Si no ha solicitado ningún código, es posible que alguien tenga su enlace de firma: no comparta este código e informe al remitente.",
};
