import type { Catalogue } from "./en.js";

export const pl: Catalogue = {
  greeting: "Dzień dobry, {name},",
  "invitation.subject": "Prośba o podpis: {title}",
  "invitation.lead":
    "{hasSender, select, yes {{sender} prosi Cię} other {Otrzymujesz prośbę}} o podpisanie dokumentu <b>{title}</b>.",
  "resend.subject": "Prośba o podpis: {title}",
  "resend.lead":
    "To jest nowy link do podpisania dokumentu <b>{title}</b>{hasSender, select, yes {, o co prosi {sender}} other {}}.",
  "reminder.subject": "Przypomnienie: podpisz dokument {title}",
  "reminder.lead":
    "Przypominamy: {hasSender, select, yes {{sender} prosi Cię} other {otrzymujesz prośbę}} o podpisanie dokumentu <b>{title}</b>.",
  "expiryWarning.subject": "Wkrótce wygasa: {title}",
  "expiryWarning.lead":
    "<b>{title}</b>{hasSender, select, yes { od {sender}} other {}} wkrótce wygasa i wciąż czeka na Ciebie.",
  "recipientChanged.subject": "Prośba o podpis: {title}",
  "recipientChanged.lead":
    "Twoje dane w tej prośbie o podpis zostały zaktualizowane. {hasSender, select, yes {{sender} prosi Cię} other {Otrzymujesz prośbę}} o podpisanie dokumentu <b>{title}</b>.",
  "completed.subject": "Zakończono: {title}",
  "completed.lead": "Wszyscy podpisali dokument <b>{title}</b>.",
  "completed.attached":
    "Podpisany dokument znajduje się w załączniku. Jego ostatnia strona to certyfikat ukończenia, a dokument jest zapieczętowany podpisem cyfrowym, który ujawnia wszelkie późniejsze zmiany.",
  "completed.tooLarge":
    "Podpisany dokument jest zbyt duży, aby go załączyć; pobierz go, korzystając z poniższego linku. Jego ostatnia strona to certyfikat ukończenia.",
  "action.sign": "Przejrzyj i podpisz",
  "action.download": "Pobierz podpisany dokument",
  "review.subject": "Prośba o zapoznanie się: {title}",
  "review.reminderSubject": "Przypomnienie: zapoznaj się z {title}",
  "review.lead":
    "Otrzymujesz prośbę o zapoznanie się z <b>{title}</b>{hasSender, select, yes { od {sender}} other {}}. Wystarczy otworzyć dokumenty.",
  "review.reminderLead":
    "Przypomnienie: otrzymujesz prośbę o zapoznanie się z <b>{title}</b>{hasSender, select, yes { od {sender}} other {}}.",
  "action.review": "Otwórz dokumenty",
  "approve.subject": "Prośba o zatwierdzenie: {title}",
  "approve.reminderSubject": "Przypomnienie: zatwierdź {title}",
  "approve.lead":
    "Otrzymujesz prośbę o zatwierdzenie <b>{title}</b>{hasSender, select, yes { od {sender}} other {}}. Niczego nie podpisujesz: zatwierdź lub odrzuć.",
  "approve.reminderLead":
    "Przypomnienie: otrzymujesz prośbę o zatwierdzenie <b>{title}</b>{hasSender, select, yes { od {sender}} other {}}.",
  "action.approve": "Przejrzyj i zatwierdź",
  senderMessage: "Wiadomość od nadawcy:",
  reminderNote: "Uwaga dołączona do przypomnienia:",
  orOpen: "Lub otwórz ten adres:",
  expires: "Prośba o podpis wygasa {date}.",
  personal:
    "Ten link jest osobisty: każdy, kto go ma, może podpisać w Twoim imieniu, dlatego nie przekazuj tej wiadomości dalej.",
  personalView:
    "Ten link jest osobisty: każdy, kto go ma, może otworzyć dokumenty w Twoim imieniu, więc nie przekazuj dalej tej wiadomości.",
  signOff: "— Countersign",
  sentBy: "Wysłano przez Countersign",
  "code.subject": "{code} to Twój kod do dokumentu {title}",
  "code.lead":
    "Twój kod do otwarcia dokumentu <b>{title}</b>{hasSender, select, yes { od {sender}} other {}} to:",
  "code.works": "Jest ważny przez 10 minut w oknie, w którym o niego poproszono.",
  "code.stranger":
    "Jeśli to nie Ty prosisz o kod, ktoś może mieć Twój link do podpisania: nie udostępniaj tego kodu i powiadom nadawcę.",
};
