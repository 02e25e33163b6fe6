import type { Catalogue } from "./en.js";

export const it: Catalogue = {
  greeting: "Gentile {name},",
  "invitation.subject": "Firma richiesta: {title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} le chiede} other {Le viene chiesto}} di firmare <b>{title}</b>.",
  "resend.subject": "Firma richiesta: {title}",
  "resend.lead":
    "Ecco un nuovo link per firmare <b>{title}</b>{hasSender, select, yes {, su richiesta di {sender}} other {}}.",
  "reminder.subject": "Promemoria: firma richiesta per {title}",
  "reminder.lead":
    "Promemoria: {hasSender, select, yes {{sender} le chiede} other {le viene chiesto}} di firmare <b>{title}</b>.",
  "expiryWarning.subject": "In scadenza: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { di {sender}} other {}} scade a breve e attende ancora te.",
  "recipientChanged.subject": "Firma richiesta: {title}",
  "recipientChanged.lead":
    "I suoi dati in questa richiesta sono stati aggiornati. {hasSender, select, yes {{sender} le chiede} other {Le viene chiesto}} di firmare <b>{title}</b>.",
  "completed.subject": "Completato: {title}",
  "completed.lead": "Tutti hanno firmato <b>{title}</b>.",
  "completed.attached":
    "Il documento firmato è allegato. L’ultima pagina è il certificato di completamento e il documento è sigillato con una firma digitale che rende visibile qualsiasi modifica successiva.",
  "completed.tooLarge":
    "Il documento firmato è troppo grande per essere allegato; lo scarichi con il link qui sotto. L’ultima pagina è il certificato di completamento.",
  "action.sign": "Esamina e firma",
  "action.download": "Scarica il documento firmato",
  "review.subject": "Da esaminare: {title}",
  "review.reminderSubject": "Promemoria: da esaminare {title}",
  "review.lead":
    "{hasSender, select, yes {{sender} le chiede} other {Le viene chiesto}} di esaminare <b>{title}</b>. Basta aprire i documenti.",
  "review.reminderLead":
    "Promemoria: {hasSender, select, yes {{sender} le chiede} other {le viene chiesto}} di esaminare <b>{title}</b>.",
  "action.review": "Apri i documenti",
  "approve.subject": "Da approvare: {title}",
  "approve.reminderSubject": "Promemoria: da approvare {title}",
  "approve.lead":
    "{hasSender, select, yes {{sender} le chiede} other {Le viene chiesto}} di approvare <b>{title}</b>. Non firma nulla: approvi o rifiuti.",
  "approve.reminderLead":
    "Promemoria: {hasSender, select, yes {{sender} le chiede} other {le viene chiesto}} di approvare <b>{title}</b>.",
  "action.approve": "Esamina e approva",
  senderMessage: "Messaggio del mittente:",
  reminderNote: "Nota allegata a questo promemoria:",
  orOpen: "Oppure apra questo indirizzo:",
  expires: "La richiesta scade il {date}.",
  personal:
    "Questo link è personale: chiunque lo abbia può firmare a suo nome, quindi non inoltri questa e-mail.",
  personalView:
    "Questo link è personale: chiunque lo possieda può aprire i documenti a Suo nome, quindi non inoltri questa e-mail.",
  signOff: "— Countersign",
  sentBy: "Inviato da Countersign",
  "code.subject": "{code} è il suo codice per {title}",
  "code.lead": "Il suo codice per aprire <b>{title}</b>{hasSender, select, yes { di {sender}} other {}} è:",
  "code.works": "È valido per 10 minuti, nella finestra in cui l’ha richiesto.",
  "code.stranger":
    "Se non ha richiesto un codice, qualcuno potrebbe avere il suo link di firma: non condivida questo codice e avvisi il mittente.",
};
