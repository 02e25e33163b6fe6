import type { Catalogue } from "./en";

export const it: Catalogue = {
  "document.title": "Da firmare: {title}",
  "language.label": "Lingua",
  "common.tryAgain": "Riprova",
  "common.cancel": "Annulla",
  "common.close": "Chiudi",
  "common.required": "(obbligatorio)",
  "common.somethingWrong": "Si è verificato un errore. Riprovi.",
  "common.network": "Impossibile raggiungere il server. Controlli la connessione e riprovi.",

  "loading.title": "Caricamento dei documenti…",
  "loading.body": "Ci vorrà solo un momento.",
  "error.title": "Impossibile caricare questa richiesta di firma",
  "ended.requestTitle": "Questa richiesta non può più essere firmata",
  "ended.sessionTitle": "Questa sessione di firma è terminata",
  "ended.sessionBody":
    "Per la sua sicurezza, le sessioni di firma scadono. Per continuare, riapra il link ricevuto via e-mail.",
  "redirecting.title": "Fatto. Reindirizzamento in corso…",
  "redirecting.body": "Sta per tornare al sito da cui proveniva.",
  "declined.title": "Ha rifiutato di firmare",
  "declined.body":
    "Il mittente può vedere che ha rifiutato e perché. Non deve fare altro; può chiudere questa pagina.",
  "reassigned.title": "Ha assegnato questa richiesta a un’altra persona",
  "reassigned.body":
    "{name} ({email}) ha ricevuto via e-mail un link per firmare al suo posto. Il mittente può vedere chi ha scelto e perché. Il suo link non funziona più; può chiudere questa pagina.",

  "signed.title": "Ha firmato",
  "signed.othersBody":
    "Grazie. Altre persone devono ancora firmare; le invieremo via e-mail il documento completato quando tutti avranno firmato. Può chiudere questa pagina.",
  "complete.title": "Il documento è completo",
  "complete.body": "Tutti hanno firmato e il documento è sigillato. Scarichi la sua copia:",
  "everyoneSigned.title": "Tutti hanno firmato",
  "sealing.delayed":
    "La sigillatura del documento sta richiedendo più tempo del previsto. Il mittente è stato avvisato; il documento completato le verrà inviato via e-mail non appena sarà sigillato. Può chiudere questa pagina.",
  "sealing.body":
    "Sigillatura del documento in corso. Ci vorrà qualche secondo; la sua copia sarà disponibile per il download qui.",
  "closed.cancelled.title": "Questa richiesta è stata annullata",
  "closed.cancelled.body": "Il mittente ha annullato questa richiesta, quindi non può più essere firmata.",
  "closed.expired.title": "Questa richiesta è scaduta",
  "closed.expired.body": "Non può più essere firmata. Chieda al mittente di inviarla di nuovo.",
  "closed.declined.title": "Questa richiesta è stata rifiutata",
  "closed.declined.body": "Un altro destinatario ha rifiutato di firmare, quindi non può più essere firmata.",
  "closed.completed.title": "Questa richiesta è completata",
  "closed.completed.body": "Tutti hanno firmato; non le resta nulla da firmare.",
  "download.signed": "Scarica il documento firmato",
  "copy.download": "Scarica ciò che ha firmato",
  "copy.note":
    "Una copia con la Sua firma, da conservare finché tutti non avranno firmato. Il documento completato, con certificato e sigillo, seguirà.",

  "gate.title": "Confermi la sua identità",
  "gate.lead":
    "{hasSender, select, yes {{sender} le chiede} other {Il mittente le chiede}} di firmare <b>{title}</b>. Prima che il documento venga mostrato, inserisca {count, plural, one {il codice richiesto} other {i codici richiesti}}.",
  "gate.accessCode.label": "Codice di accesso",
  "gate.accessCode.hint":
    "Il mittente gliel’ha comunicato in un altro modo: per telefono, SMS o lettera. Non è nell’e-mail.",
  "gate.accessCode.missing": "Inserisca il codice di accesso ricevuto dal mittente.",
  "gate.accessCode.wrong":
    "Questo non è il codice di accesso ricevuto dal mittente. {left, plural, one {Resta # tentativo} other {Restano # tentativi}} prima di un blocco temporaneo.",
  "gate.emailCode.label": "Codice ricevuto via e-mail",
  "gate.emailCode.sent":
    "Abbiamo inviato un codice di sei cifre all’indirizzo {address}. È valido per 10 minuti.",
  "gate.emailCode.willSend": "Invieremo un codice di sei cifre all’indirizzo {address}.",
  "gate.emailCode.yourAddress": "e-mail registrato",
  "gate.emailCode.missing": "Inserisca il codice ricevuto via e-mail.",
  "gate.emailCode.askFirst": "Prima richieda un codice, poi lo inserisca qui.",
  "gate.emailCode.wrong":
    "Questo non è il codice che le abbiamo inviato via e-mail. {left, plural, one {Resta # tentativo} other {Restano # tentativi}} prima di un blocco temporaneo.",
  "gate.emailCode.send": "Inviami un codice",
  "gate.emailCode.sendNew": "Invia un nuovo codice",
  "gate.continue": "Vai al documento",
  "gate.locked.title": "Troppi codici errati",
  "gate.locked.body":
    "Per la sua sicurezza, questa richiesta è bloccata fino alle <b>{time}</b>. Riprovi a quell’ora oppure chieda il codice corretto {hasSender, select, yes {a {sender}} other {al mittente}}.",

  "header.skip": "Vai ai documenti",
  "header.from": "Da <b>{sender}</b>",
  "header.signingAs": "Firmatario: <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Visualizzazione come <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Messaggio di {sender}} other {Messaggio del mittente}}",
  "howTo.title": "Come firmare",
  "howTo.body":
    "Compili i campi evidenziati nei documenti qui sotto, poi accetti di firmare elettronicamente e selezioni <b>Fine</b> in fondo alla pagina.",
  "howTo.requiredMark": "I campi contrassegnati da * sono obbligatori.",
  "test.notice":
    "Una prova: questi documenti sono stati inviati per provare il servizio. Firmarli non vincola nessuno.",
  "viewer.title": "Le viene chiesto di visionare questi documenti",
  "viewer.body":
    "Non c’è nulla da firmare. Aprirli è la Sua parte, ed è stato registrato: il mittente è stato avvisato. Può chiudere questa pagina dopo averli letti.",
  "approver.title": "Le viene chiesto di approvare questi documenti",
  "approver.body":
    "Li legga, poi approvi o rifiuti. Non firma nulla: la Sua approvazione viene registrata con l’ora, il Suo indirizzo e il Suo browser.",
  "approver.consent":
    "Accetto che selezionare «Approva» costituisca la mia approvazione elettronica di questi documenti.",
  "approver.approve": "Approva",
  "approver.approving": "Approvazione…",
  "approved.title": "Ha approvato",
  "header.approvingAs": "Approvazione come <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "Nessun campo obbligatorio",
  "progress.count":
    "{done, number} di {total, plural, one {# campo obbligatorio compilato} other {# campi obbligatori compilati}}",
  "progress.allDone":
    "{total, plural, one {Il campo obbligatorio è compilato.} other {Tutti i # campi obbligatori sono compilati.}}",
  "progress.label": "Campi obbligatori compilati",
  "finish.fillIn":
    "Per terminare, compili {count, plural, one {ancora # campo obbligatorio} other {altri # campi obbligatori}}.",
  "finish.consent": "Per terminare, accetti di firmare elettronicamente, accanto a Fine.",
  "next.consent":
    "Tutti i campi obbligatori sono compilati. Accetti di firmare elettronicamente, poi selezioni Fine.",
  "next.finish": "È tutto compilato. Selezioni Fine per firmare.",
  "actions.label": "Avanzamento e azioni di firma",
  "actions.consent":
    "Accetto di firmare elettronicamente e riconosco che la mia firma elettronica ha lo stesso valore legale della mia firma autografa.",
  "actions.consentAll": "Leggi tutto",
  "actions.decline": "Rifiuta",
  "actions.next": "Campo successivo",
  "actions.signing": "Firma in corso…",
  "actions.finish": "Fine",
  "submit.problems":
    "{count, plural, one {# problema da correggere} other {# problemi da correggere}} prima di firmare.",
  "submit.closed": "Questa richiesta non può più essere firmata.",

  "applied.again": "{label}: applicato a pagina {page}. Selezioni di nuovo per modificare.",
  "applied.one": "{label}: applicato a pagina {page}.",
  "applied.all":
    "{kind, select, initials {Iniziali applicate a tutti i {count} campi per le iniziali.} other {Firma applicata a tutti i {count} campi di firma.}}",

  "zoom.legend": "Zoom del documento",
  "zoom.out": "Riduci",
  "zoom.in": "Ingrandisci",
  "zoom.fit": "Adatta alla larghezza",

  "document.position": "Documento {index} di {total}",
  "document.pages": "{pages, plural, one {# pagina} other {# pagine}}",
  "document.loadFailed": "Impossibile caricare questo documento.",
  "page.loading": "Caricamento della pagina {page}…",
  "page.unavailable": "Pagina non disponibile",
  "page.label": "Pagina {page} di {total}",

  "inPerson.title": "Firma in presenza",
  "inPerson.body":
    "<b>{host}</b> sta gestendo questa firma su questo dispositivo. La preghiamo di passarlo a <b>{name}</b>, che firmerà.",
  "inPerson.continue": "Sono {name}: continua",
  "header.hostedBy": "In presenza, gestita da <b>{host}</b>",

  "type.signature": "Firma",
  "type.initials": "Iniziali",
  "type.date_signed": "Data della firma",
  "type.text": "Testo",
  "type.checkbox": "Casella di controllo",
  "type.name": "Nome e cognome",
  "type.email": "E-mail",
  "type.date": "Data",
  "type.number": "Numero",
  "type.dropdown": "Scelta",
  "type.radio": "Opzione",
  "type.attachment": "Allegato",

  "field.required": "obbligatorio",
  "field.optional": "facoltativo",
  "field.described": "{label}, {requirement}, pagina {page}",
  "field.sign": "Firma",
  "field.initial": "Sigla",
  "field.toSign": "{action}: {label}, {requirement}, pagina {page}",
  "field.signedTyped": "{text}: {label}, firmato, pagina {page}. Selezioni per modificare",
  "field.signedDrawn": "{label}, firmato (disegnato), pagina {page}. Selezioni per modificare",
  "field.dateSigned": "Data della firma, compilata automaticamente al termine, pagina {page}",
  "field.choose": "Scegli…",
  "field.pickDate": "Scegli una data",
  "field.pickedDate": "{date}: {label}, {requirement}, pagina {page}. Selezioni per modificare",
  "field.toPickDate": "Scegli una data: {label}, {requirement}, pagina {page}",
  "field.numberHint":
    "{label}, un numero{range, select, both { da {min} a {max}} min { non inferiore a {min}} max { non superiore a {max}} other {}}, {requirement}, pagina {page}",
  "field.notANumber": "Inserisca un numero, ad esempio 42 o 3,5.",
  "field.tooSmall": "Inserisca {min} o più.",
  "field.tooLarge": "Inserisca {max} o meno.",
  "field.radioOption": "{option}, {label}, {requirement}, pagina {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Selezioni almeno # casella.} other {Selezioni almeno # caselle.}}{most, plural, =0 {} one { Selezioni al massimo # casella.} other { Selezioni al massimo # caselle.}}",
  "field.attach": "Allega un file",
  "field.attaching": "Caricamento dell’allegato…",
  "field.toAttach": "Allega un file: {label}, {requirement}, pagina {page}",
  "field.attachedFile": "{filename}: {label}, allegato, pagina {page}. Selezioni per sostituire",
  "attach.tooLarge": "Questo file supera i 10 MB. Alleghi un file più piccolo.",
  "attach.wrongType": "Alleghi un PDF oppure un’immagine PNG o JPEG.",
  "attach.failed": "Non è stato possibile allegare il file. Riprovi.",
  "date.title": "Scegli una data",
  "date.apply": "Applica",
  "date.clear": "Cancella",
  "filled.by": "{label}, compilato da {name}",
  "filled.byWithValue": "{label}, compilato da {name}: {value}",

  "signature.title": "{kind, select, initials {Adotti le sue iniziali} other {Adotti la sua firma}}",
  "signature.how": "{kind, select, initials {Come creare le iniziali} other {Come creare la firma}}",
  "signature.tabType": "Digita",
  "signature.tabDraw": "Disegna",
  "signature.typeLabel": "{kind, select, initials {Le sue iniziali} other {Nome e cognome}}",
  "signature.preview": "Anteprima",
  "signature.drawHint":
    "Disegni con il mouse, una penna o il dito. Chi usa la tastiera può usare la scheda Digita.",
  "signature.canvas":
    "{kind, select, initials {Area di disegno per le iniziali} other {Area di disegno per la firma}}",
  "signature.clear": "Cancella",
  "signature.typeFirst":
    "{kind, select, initials {Prima digiti le sue iniziali.} other {Prima digiti la sua firma.}}",
  "signature.drawFirst":
    "{kind, select, initials {Prima disegni le sue iniziali nel riquadro, oppure usi la scheda Digita.} other {Prima disegni la sua firma nel riquadro, oppure usi la scheda Digita.}}",
  "signature.applyAll":
    "{kind, select, initials {Applica a tutti i {count} campi per le iniziali} other {Applica a tutti i {count} campi di firma}}",
  "signature.legal":
    "{kind, select, initials {Selezionando Applica, adotta queste come sue iniziali elettroniche per questa richiesta.} other {Selezionando Applica, adotta questa come sua firma elettronica per questa richiesta.}}",
  "signature.apply": "Applica",

  "decline.title": "Rifiuta di firmare",
  "decline.description":
    "Il mittente verrà informato del suo rifiuto e del motivo. In seguito non potrà più firmare questa richiesta.",
  "decline.reason": "Motivo del rifiuto",
  "decline.characters": "{count, number} / {max, number} caratteri",
  "decline.missing": "Indichi al mittente il motivo del rifiuto.",
  "decline.declining": "Rifiuto in corso…",

  "reassign.offer": "Deve firmare un’altra persona?",
  "reassign.title": "Assegna a un’altra persona",
  "reassign.description":
    "La persona scelta riceverà via e-mail un link per firmare al suo posto. Il link che ha ricevuto lei smetterà di funzionare e il mittente vedrà chi ha scelto e perché.",
  "reassign.name": "Nome della persona",
  "reassign.email": "E-mail della persona",
  "reassign.reason": "Motivo",
  "reassign.nameMissing": "Indichi il nome della persona che firmerà al suo posto.",
  "reassign.emailMissing": "Indichi l’indirizzo e-mail della persona: il link verrà inviato lì.",
  "reassign.reasonMissing": "Indichi il motivo al mittente.",
  "reassign.confirm": "Assegna",
};
