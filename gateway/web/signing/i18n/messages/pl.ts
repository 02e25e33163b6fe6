import type { Catalogue } from "./en";

export const pl: Catalogue = {
  "document.title": "Podpisz: {title}",
  "language.label": "Język",
  "common.tryAgain": "Spróbuj ponownie",
  "common.cancel": "Anuluj",
  "common.close": "Zamknij",
  "common.required": "(wymagane)",
  "common.somethingWrong": "Coś poszło nie tak. Spróbuj ponownie.",
  "common.network": "Nie udało się połączyć z serwerem. Sprawdź połączenie i spróbuj ponownie.",

  "loading.title": "Wczytywanie dokumentów…",
  "loading.body": "To potrwa chwilę.",
  "error.title": "Nie udało się wczytać tej prośby o podpis",
  "ended.requestTitle": "Tych dokumentów nie można już podpisać",
  "ended.sessionTitle": "Sesja podpisywania została zakończona",
  "ended.sessionBody":
    "Ze względów bezpieczeństwa sesje podpisywania wygasają. Aby kontynuować, ponownie otwórz link z wiadomości e-mail.",
  "redirecting.title": "Gotowe. Trwa przekierowanie…",
  "redirecting.body": "Przekierowujemy Cię z powrotem do witryny, z której nastąpiło przejście.",
  "declined.title": "Odmówiono podpisania",
  "declined.body":
    "Nadawca widzi, że odmówiono podpisania, i zna powód. Nie musisz robić nic więcej; możesz zamknąć tę stronę.",
  "reassigned.title": "Prośba o podpis została przekazana innej osobie",
  "reassigned.body":
    "Osobie {name} ({email}) wysłano e-mailem link, aby mogła podpisać zamiast Ciebie. Nadawca widzi, kogo wybrano i dlaczego. Twój link już nie działa; możesz zamknąć tę stronę.",

  "signed.title": "Podpis został złożony",
  "signed.othersBody":
    "Dziękujemy. Pozostałe osoby muszą jeszcze podpisać; gdy wszyscy to zrobią, wyślemy Ci e-mailem gotowy dokument. Możesz zamknąć tę stronę.",
  "complete.title": "Dokument jest kompletny",
  "complete.body": "Wszyscy złożyli podpisy, a dokument został zapieczętowany. Pobierz swoją kopię:",
  "everyoneSigned.title": "Wszyscy złożyli podpisy",
  "sealing.delayed":
    "Pieczętowanie dokumentu trwa dłużej, niż powinno. Nadawca został o tym poinformowany; gotowy dokument zostanie wysłany do Ciebie e-mailem po zapieczętowaniu. Możesz zamknąć tę stronę.",
  "sealing.body":
    "Trwa pieczętowanie dokumentu. Potrwa to kilka sekund; Twoja kopia będzie gotowa do pobrania tutaj.",
  "closed.cancelled.title": "Ta prośba o podpis została anulowana",
  "closed.cancelled.body": "Nadawca anulował tę prośbę o podpis, więc podpisanie nie jest już możliwe.",
  "closed.expired.title": "Ta prośba o podpis wygasła",
  "closed.expired.body": "Podpisanie nie jest już możliwe. Poproś nadawcę o ponowne wysłanie.",
  "closed.declined.title": "Ta prośba o podpis została odrzucona",
  "closed.declined.body": "Inny odbiorca odmówił podpisania, więc podpisanie nie jest już możliwe.",
  "closed.completed.title": "Ta prośba o podpis została zakończona",
  "closed.completed.body": "Wszyscy złożyli podpisy; nie masz już nic do podpisania.",
  "download.signed": "Pobierz podpisany dokument",
  "copy.download": "Pobierz podpisany dokument",
  "copy.note":
    "Kopia z Twoim podpisem do Twojej dokumentacji, dopóki wszyscy nie podpiszą. Ukończony dokument z certyfikatem i pieczęcią zostanie przesłany później.",

  "gate.title": "Potwierdź swoją tożsamość",
  "gate.lead":
    "{hasSender, select, yes {{sender} prosi Cię} other {Nadawca prosi Cię}} o podpisanie dokumentu <b>{title}</b>. Zanim dokument zostanie wyświetlony, podaj {count, plural, one {wymagany kod} few {wymagane kody} many {wymagane kody} other {wymagane kody}}.",
  "gate.accessCode.label": "Kod dostępu",
  "gate.accessCode.hint":
    "Nadawca przekazał go w inny sposób: telefonicznie, SMS-em lub listownie. Nie ma go w wiadomości e-mail.",
  "gate.accessCode.missing": "Wpisz kod dostępu otrzymany od nadawcy.",
  "gate.accessCode.wrong":
    "To nie jest kod dostępu przekazany przez nadawcę. {left, plural, one {Pozostała # próba} few {Pozostały # próby} many {Pozostało # prób} other {Pozostało # próby}} przed tymczasową blokadą.",
  "gate.emailCode.label": "Kod z wiadomości e-mail",
  "gate.emailCode.sent": "Wysłaliśmy sześciocyfrowy kod na {address}. Jest ważny przez 10 minut.",
  "gate.emailCode.willSend": "Wyślemy sześciocyfrowy kod na {address}.",
  "gate.emailCode.yourAddress": "Twój adres e-mail",
  "gate.emailCode.missing": "Wpisz kod z wiadomości e-mail.",
  "gate.emailCode.askFirst": "Najpierw poproś o kod, a potem wpisz go tutaj.",
  "gate.emailCode.wrong":
    "To nie jest kod, który wysłaliśmy Ci e-mailem. {left, plural, one {Pozostała # próba} few {Pozostały # próby} many {Pozostało # prób} other {Pozostało # próby}} przed tymczasową blokadą.",
  "gate.emailCode.send": "Wyślij mi kod",
  "gate.emailCode.sendNew": "Wyślij nowy kod",
  "gate.continue": "Przejdź do dokumentu",
  "gate.locked.title": "Zbyt wiele błędnych kodów",
  "gate.locked.body":
    "Ze względów bezpieczeństwa ta prośba o podpis jest zablokowana do <b>{time}</b>. Spróbuj wtedy ponownie lub poproś {hasSender, select, yes {{sender}} other {nadawcę}} o właściwy kod.",

  "header.skip": "Przejdź do dokumentów",
  "header.from": "Od: <b>{sender}</b>",
  "header.signingAs": "Podpisujesz jako <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Przeglądasz jako <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Wiadomość od: {sender}} other {Wiadomość od nadawcy}}",
  "howTo.title": "Jak podpisać",
  "howTo.body":
    "Wypełnij wyróżnione pola w dokumentach poniżej, a następnie wyraź zgodę na podpis elektroniczny i wybierz <b>Zakończ</b> na dole strony.",
  "howTo.requiredMark": "Pola oznaczone * są wymagane.",
  "test.notice": "Test: te dokumenty wysłano, aby wypróbować usługę. Ich podpisanie nikogo nie wiąże.",
  "viewer.title": "Prośba o zapoznanie się z tymi dokumentami",
  "viewer.body":
    "Nie musisz niczego podpisywać. Twoim zadaniem jest ich otwarcie i zostało to odnotowane: nadawca został powiadomiony. Możesz zamknąć tę stronę po ich przeczytaniu.",
  "approver.title": "Prośba o zatwierdzenie tych dokumentów",
  "approver.body":
    "Przeczytaj je, a następnie zatwierdź lub odrzuć. Niczego nie podpisujesz: zatwierdzenie zostanie zapisane wraz z czasem, Twoim adresem i przeglądarką.",
  "approver.consent":
    "Zgadzam się, że wybranie „Zatwierdź” jest moim elektronicznym zatwierdzeniem tych dokumentów.",
  "approver.approve": "Zatwierdź",
  "approver.approving": "Zatwierdzanie…",
  "approved.title": "Zatwierdzono",
  "header.approvingAs": "Zatwierdzasz jako <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "Brak wymaganych pól",
  "progress.count":
    "Wypełniono {done, number} z {total, plural, one {# wymaganego pola} few {# wymaganych pól} many {# wymaganych pól} other {# wymaganego pola}}",
  "progress.allDone":
    "{total, plural, one {Wymagane pole zostało wypełnione.} few {Wypełniono wszystkie # wymagane pola.} many {Wypełniono wszystkie # wymaganych pól.} other {Wypełniono wszystkie wymagane pola (#).}}",
  "progress.label": "Wypełnione wymagane pola",
  "finish.fillIn":
    "Aby zakończyć, wypełnij jeszcze {count, plural, one {# wymagane pole} few {# wymagane pola} many {# wymaganych pól} other {# wymaganego pola}}.",
  "finish.consent": "Aby zakończyć, wyraź zgodę na podpis elektroniczny obok przycisku Zakończ.",
  "next.consent":
    "Wszystkie wymagane pola są wypełnione. Wyraź zgodę na podpis elektroniczny, a następnie wybierz Zakończ.",
  "next.finish": "Wszystko jest wypełnione. Wybierz Zakończ, aby podpisać.",
  "actions.label": "Postęp podpisywania i działania",
  "actions.consent":
    "Zgadzam się na podpisanie elektroniczne i uznaję, że mój podpis elektroniczny jest prawnie równoważny z moim podpisem własnoręcznym.",
  "actions.consentAll": "Przeczytaj całość",
  "actions.decline": "Odrzuć",
  "actions.next": "Następne pole",
  "actions.signing": "Podpisywanie…",
  "actions.finish": "Zakończ",
  "submit.problems":
    "Do poprawienia przed podpisaniem: {count, plural, one {# problem} few {# problemy} many {# problemów} other {# problemu}}.",
  "submit.closed": "Tych dokumentów nie można już podpisać.",

  "applied.again": "Zastosowano: {label}, strona {page}. Wybierz ponownie, aby zmienić.",
  "applied.one": "Zastosowano: {label}, strona {page}.",
  "applied.all":
    "{kind, select, initials {Zastosowano we wszystkich polach na inicjały ({count}).} other {Zastosowano we wszystkich polach podpisu ({count}).}}",

  "zoom.legend": "Powiększenie dokumentu",
  "zoom.out": "Pomniejsz",
  "zoom.in": "Powiększ",
  "zoom.fit": "Dopasuj do szerokości",

  "document.position": "Dokument {index} z {total}",
  "document.pages": "{pages, plural, one {# strona} few {# strony} many {# stron} other {# strony}}",
  "document.loadFailed": "Nie udało się wczytać tego dokumentu.",
  "page.loading": "Wczytywanie strony {page}…",
  "page.unavailable": "Strona niedostępna",
  "page.label": "Strona {page} z {total}",

  "inPerson.title": "Podpisywanie na miejscu",
  "inPerson.body":
    "<b>{host}</b> prowadzi to podpisywanie na tym urządzeniu. Przekaż je osobie <b>{name}</b>, która złoży podpis.",
  "inPerson.continue": "Jestem {name}: kontynuuj",
  "header.hostedBy": "Na miejscu, prowadzi: <b>{host}</b>",

  "type.signature": "Podpis",
  "type.initials": "Inicjały",
  "type.date_signed": "Data podpisania",
  "type.text": "Tekst",
  "type.checkbox": "Pole wyboru",
  "type.name": "Imię i nazwisko",
  "type.email": "E-mail",
  "type.date": "Data",
  "type.number": "Liczba",
  "type.dropdown": "Wybór z listy",
  "type.radio": "Opcja",
  "type.attachment": "Załącznik",

  "field.required": "wymagane",
  "field.optional": "opcjonalne",
  "field.described": "{label}, {requirement}, strona {page}",
  "field.sign": "Podpisz",
  "field.initial": "Parafuj",
  "field.toSign": "{action}: {label}, {requirement}, strona {page}",
  "field.signedTyped": "{text}: {label}, podpisano, strona {page}. Wybierz, aby zmienić",
  "field.signedDrawn": "{label}, podpisano (odręcznie), strona {page}. Wybierz, aby zmienić",
  "field.dateSigned": "Data podpisania, uzupełniana automatycznie po zakończeniu, strona {page}",
  "field.choose": "Wybierz…",
  "field.pickDate": "Wybierz datę",
  "field.pickedDate": "{date}: {label}, {requirement}, strona {page}. Wybierz, aby zmienić",
  "field.toPickDate": "Wybierz datę: {label}, {requirement}, strona {page}",
  "field.numberHint":
    "{label}, liczba{range, select, both { od {min} do {max}} min { nie mniejsza niż {min}} max { nie większa niż {max}} other {}}, {requirement}, strona {page}",
  "field.notANumber": "Wpisz liczbę, np. 42 lub 3,5.",
  "field.tooSmall": "Wpisz {min} lub więcej.",
  "field.tooLarge": "Wpisz {max} lub mniej.",
  "field.radioOption": "{option}, {label}, {requirement}, strona {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Zaznacz co najmniej # pole.} few {Zaznacz co najmniej # pola.} many {Zaznacz co najmniej # pól.} other {Zaznacz co najmniej # pola.}}{most, plural, =0 {} one { Zaznacz co najwyżej # pole.} few { Zaznacz co najwyżej # pola.} many { Zaznacz co najwyżej # pól.} other { Zaznacz co najwyżej # pola.}}",
  "field.attach": "Załącz plik",
  "field.attaching": "Załączanie…",
  "field.toAttach": "Załącz plik: {label}, {requirement}, strona {page}",
  "field.attachedFile": "{filename}: {label}, załączono, strona {page}. Wybierz, aby zastąpić",
  "attach.tooLarge": "Ten plik jest większy niż 10 MB. Załącz mniejszy plik.",
  "attach.wrongType": "Załącz plik PDF albo obraz PNG lub JPEG.",
  "attach.failed": "Nie udało się załączyć pliku. Spróbuj ponownie.",
  "date.title": "Wybierz datę",
  "date.apply": "Zastosuj",
  "date.clear": "Wyczyść",
  "filled.by": "{label}, wypełnione przez: {name}",
  "filled.byWithValue": "{label}, wypełnione przez: {name}, wartość: {value}",

  "signature.title": "{kind, select, initials {Utwórz swoje inicjały} other {Utwórz swój podpis}}",
  "signature.how": "{kind, select, initials {Sposób utworzenia inicjałów} other {Sposób utworzenia podpisu}}",
  "signature.tabType": "Wpisz",
  "signature.tabDraw": "Narysuj",
  "signature.typeLabel": "{kind, select, initials {Twoje inicjały} other {Twoje imię i nazwisko}}",
  "signature.preview": "Podgląd",
  "signature.drawHint":
    "Rysuj myszą, piórem lub palcem. Użytkownicy klawiatury mogą skorzystać z karty Wpisz.",
  "signature.canvas":
    "{kind, select, initials {Obszar rysowania inicjałów} other {Obszar rysowania podpisu}}",
  "signature.clear": "Wyczyść",
  "signature.typeFirst":
    "{kind, select, initials {Najpierw wpisz swoje inicjały.} other {Najpierw wpisz swój podpis.}}",
  "signature.drawFirst":
    "{kind, select, initials {Najpierw narysuj inicjały w polu lub skorzystaj z karty Wpisz.} other {Najpierw narysuj podpis w polu lub skorzystaj z karty Wpisz.}}",
  "signature.applyAll":
    "{kind, select, initials {Zastosuj we wszystkich polach na inicjały ({count})} other {Zastosuj we wszystkich polach podpisu ({count})}}",
  "signature.legal":
    "{kind, select, initials {Wybierając „Zastosuj”, przyjmujesz te inicjały jako swoje inicjały elektroniczne na potrzeby tej prośby o podpis.} other {Wybierając „Zastosuj”, przyjmujesz ten podpis jako swój podpis elektroniczny na potrzeby tej prośby o podpis.}}",
  "signature.apply": "Zastosuj",

  "decline.title": "Odmowa podpisania",
  "decline.description":
    "Nadawca zostanie poinformowany o odmowie wraz z podanym powodem. Później nie będzie już można podpisać tych dokumentów.",
  "decline.reason": "Powód odmowy",
  "decline.characters": "{count, number} / {max, number} znaków",
  "decline.missing": "Podaj nadawcy powód odmowy.",
  "decline.declining": "Odrzucanie…",

  "reassign.offer": "Ktoś inny powinien podpisać?",
  "reassign.title": "Przekaż innej osobie",
  "reassign.description":
    "Ta osoba otrzyma e-mailem link, aby podpisać zamiast Ciebie. Twój link przestanie działać, a nadawca zobaczy, kogo wybrano i dlaczego.",
  "reassign.name": "Imię i nazwisko tej osoby",
  "reassign.email": "Adres e-mail tej osoby",
  "reassign.reason": "Powód",
  "reassign.nameMissing": "Podaj imię i nazwisko osoby, która podpisze zamiast Ciebie.",
  "reassign.emailMissing": "Podaj adres e-mail tej osoby: na niego zostanie wysłany link.",
  "reassign.reasonMissing": "Podaj nadawcy powód.",
  "reassign.confirm": "Przekaż",
};
