import type { Catalogue } from "./en.js";

export const ptBR: Catalogue = {
  greeting: "Olá, {name},",
  "invitation.subject": "Assinatura solicitada: {title}",
  "invitation.lead":
    "Você recebeu uma solicitação para assinar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}.",
  "resend.subject": "Assinatura solicitada: {title}",
  "resend.lead":
    "Este é um novo link para assinar <b>{title}</b>{hasSender, select, yes {, a pedido de {sender}} other {}}.",
  "reminder.subject": "Lembrete: assine {title}",
  "reminder.lead":
    "Lembrete: você recebeu uma solicitação para assinar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}.",
  "expiryWarning.subject": "Expira em breve: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { de {sender}} other {}} expira em breve e ainda aguarda você.",
  "recipientChanged.subject": "Assinatura solicitada: {title}",
  "recipientChanged.lead":
    "Seus dados nesta solicitação foram atualizados. Você recebeu uma solicitação para assinar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}.",
  "completed.subject": "Concluído: {title}",
  "completed.lead": "Todos assinaram <b>{title}</b>.",
  "completed.attached":
    "O documento assinado está anexado. A última página é o certificado de conclusão, e o documento está selado com uma assinatura digital que revela qualquer alteração posterior.",
  "completed.tooLarge":
    "O documento assinado é grande demais para ser anexado; baixe-o pelo link abaixo. A última página é o certificado de conclusão.",
  "action.sign": "Revisar e assinar",
  "action.download": "Baixar o documento assinado",
  "review.subject": "Revise, por favor: {title}",
  "review.reminderSubject": "Lembrete: revise {title}",
  "review.lead":
    "Você recebeu uma solicitação para revisar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}. Basta abrir os documentos.",
  "review.reminderLead":
    "Lembrete: você recebeu uma solicitação para revisar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}.",
  "action.review": "Revisar os documentos",
  "approve.subject": "Aprove, por favor: {title}",
  "approve.reminderSubject": "Lembrete: aprove {title}",
  "approve.lead":
    "Você recebeu uma solicitação para aprovar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}. Você não assina nada: aprove ou recuse.",
  "approve.reminderLead":
    "Lembrete: você recebeu uma solicitação para aprovar <b>{title}</b>{hasSender, select, yes {, enviada por {sender}} other {}}.",
  "action.approve": "Revisar e aprovar",
  senderMessage: "Mensagem do remetente:",
  reminderNote: "Observação deste lembrete:",
  orOpen: "Ou abra este endereço:",
  expires: "A solicitação expira em {date}.",
  personal:
    "Este link é pessoal: qualquer pessoa que o tiver poderá assinar em seu nome, por isso não encaminhe este e-mail.",
  personalView:
    "Este link é pessoal: qualquer pessoa com ele pode abrir os documentos em seu nome, então não encaminhe este e-mail.",
  signOff: "— Countersign",
  sentBy: "Enviado por Countersign",
  "code.subject": "{code} é o seu código para {title}",
  "code.lead":
    "Seu código para abrir <b>{title}</b>{hasSender, select, yes {, enviado por {sender},} other {}} é:",
  "code.works": "Ele é válido por 10 minutos, na janela em que você o solicitou.",
  "code.stranger":
    "Se você não solicitou um código, alguém pode estar com seu link de assinatura: não compartilhe este código e avise o remetente.",
};
