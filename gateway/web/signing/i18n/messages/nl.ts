import type { Catalogue } from "./en";

export const nl: Catalogue = {
  "document.title": "Ondertekenen: {title}",
  "language.label": "Taal",
  "common.tryAgain": "Opnieuw proberen",
  "common.cancel": "Annuleren",
  "common.close": "Sluiten",
  "common.required": "(verplicht)",
  "common.somethingWrong": "Er is iets misgegaan. Probeer het opnieuw.",
  "common.network": "We konden de server niet bereiken. Controleer uw verbinding en probeer het opnieuw.",

  "loading.title": "Uw documenten worden geladen…",
  "loading.body": "Een ogenblik geduld.",
  "error.title": "We konden dit ondertekeningsverzoek niet laden",
  "ended.requestTitle": "Dit verzoek kan niet meer worden ondertekend",
  "ended.sessionTitle": "Deze ondertekeningssessie is beëindigd",
  "ended.sessionBody":
    "Voor uw veiligheid verlopen ondertekeningssessies. Open de link in uw e-mail opnieuw om verder te gaan.",
  "redirecting.title": "Klaar. U wordt teruggestuurd…",
  "redirecting.body": "U gaat terug naar de site waar u vandaan kwam.",
  "declined.title": "U hebt geweigerd te ondertekenen",
  "declined.body":
    "De afzender kan zien dat u hebt geweigerd en waarom. U hoeft verder niets te doen; u kunt deze pagina sluiten.",
  "reassigned.title": "U hebt dit verzoek aan iemand anders toegewezen",
  "reassigned.body":
    "{name} ({email}) heeft per e-mail een link ontvangen om in uw plaats te ondertekenen. De afzender kan zien wie u hebt gekozen en waarom. Uw link werkt niet meer; u kunt deze pagina sluiten.",

  "signed.title": "U hebt ondertekend",
  "signed.othersBody":
    "Bedankt. Anderen moeten nog ondertekenen; we e-mailen u het voltooide document zodra iedereen heeft ondertekend. U kunt deze pagina sluiten.",
  "complete.title": "Het document is voltooid",
  "complete.body": "Iedereen heeft ondertekend en het document is verzegeld. Download uw exemplaar:",
  "everyoneSigned.title": "Iedereen heeft ondertekend",
  "sealing.delayed":
    "Het verzegelen van het document duurt langer dan zou moeten. De afzender is op de hoogte gebracht; het voltooide document wordt u per e-mail toegestuurd zodra het is verzegeld. U kunt deze pagina sluiten.",
  "sealing.body":
    "Het document wordt verzegeld. Dit duurt enkele seconden; daarna kunt u uw exemplaar hier downloaden.",
  "closed.cancelled.title": "Dit verzoek is geannuleerd",
  "closed.cancelled.body":
    "De afzender heeft dit verzoek geannuleerd, dus het kan niet meer worden ondertekend.",
  "closed.expired.title": "Dit verzoek is verlopen",
  "closed.expired.body":
    "Het kan niet meer worden ondertekend. Vraag de afzender om het opnieuw te versturen.",
  "closed.declined.title": "Dit verzoek is geweigerd",
  "closed.declined.body":
    "Een andere ontvanger heeft geweigerd te ondertekenen, dus het kan niet meer worden ondertekend.",
  "closed.completed.title": "Dit verzoek is voltooid",
  "closed.completed.body": "Iedereen heeft ondertekend; er valt voor u niets meer te ondertekenen.",
  "download.signed": "Ondertekend document downloaden",
  "copy.download": "Download wat u hebt ondertekend",
  "copy.note":
    "Een kopie met uw handtekening voor uw administratie, totdat iedereen heeft ondertekend. Het voltooide document, met certificaat en zegel, volgt.",

  "gate.title": "Bevestig uw identiteit",
  "gate.lead":
    "{hasSender, select, yes {{sender} vraagt u} other {De afzender vraagt u}} <b>{title}</b> te ondertekenen. Voer {count, plural, one {de gevraagde code} other {de gevraagde codes}} in voordat het document wordt getoond.",
  "gate.accessCode.label": "Toegangscode",
  "gate.accessCode.hint":
    "De afzender heeft u deze code op een andere manier gegeven: telefonisch, per sms of per brief. De code staat niet in de e-mail.",
  "gate.accessCode.missing": "Voer de toegangscode in die u van de afzender hebt gekregen.",
  "gate.accessCode.wrong":
    "Dat is niet de toegangscode die u van de afzender hebt gekregen. Nog {left, plural, one {# poging} other {# pogingen}} voordat de toegang tijdelijk wordt geblokkeerd.",
  "gate.emailCode.label": "Code uit uw e-mail",
  "gate.emailCode.sent":
    "We hebben een zescijferige code naar {address} gestuurd. De code is 10 minuten geldig.",
  "gate.emailCode.willSend": "We sturen een zescijferige code naar {address}.",
  "gate.emailCode.yourAddress": "uw adres",
  "gate.emailCode.missing": "Voer de code uit de e-mail in.",
  "gate.emailCode.askFirst": "Vraag eerst een code aan en voer die hier in.",
  "gate.emailCode.wrong":
    "Dat is niet de code die we u hebben gemaild. Nog {left, plural, one {# poging} other {# pogingen}} voordat de toegang tijdelijk wordt geblokkeerd.",
  "gate.emailCode.send": "Stuur mij een code",
  "gate.emailCode.sendNew": "Nieuwe code sturen",
  "gate.continue": "Verder naar het document",
  "gate.locked.title": "Te veel onjuiste codes",
  "gate.locked.body":
    "Voor uw veiligheid is dit verzoek geblokkeerd tot <b>{time}</b>. Probeer het dan opnieuw of vraag {hasSender, select, yes {{sender}} other {de afzender}} om de juiste code.",

  "header.skip": "Naar de documenten",
  "header.from": "Van <b>{sender}</b>",
  "header.signingAs": "Ondertekenen als <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Inzien als <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Bericht van {sender}} other {Bericht van de afzender}}",
  "howTo.title": "Zo ondertekent u",
  "howTo.body":
    "Vul de gemarkeerde velden in de documenten hieronder in, ga akkoord met elektronisch ondertekenen en selecteer <b>Voltooien</b> onder aan de pagina.",
  "howTo.requiredMark": "Velden met een * zijn verplicht.",
  "test.notice":
    "Een test: deze documenten zijn verstuurd om de dienst uit te proberen. Ondertekenen verbindt niemand.",
  "viewer.title": "U wordt gevraagd deze documenten in te zien",
  "viewer.body":
    "U hoeft niets te ondertekenen. Het openen is uw deel, en dat is vastgelegd: de afzender is op de hoogte gebracht. U kunt deze pagina sluiten als u ze hebt gelezen.",
  "approver.title": "U wordt gevraagd deze documenten goed te keuren",
  "approver.body":
    "Lees ze en keur ze goed of wijs ze af. U ondertekent niets: uw goedkeuring wordt vastgelegd met het tijdstip, uw adres en uw browser.",
  "approver.consent":
    "Ik ga ermee akkoord dat het selecteren van ‘Goedkeuren’ mijn elektronische goedkeuring van deze documenten is.",
  "approver.approve": "Goedkeuren",
  "approver.approving": "Bezig met goedkeuren…",
  "approved.title": "U hebt goedgekeurd",
  "header.approvingAs": "Goedkeuren als <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "Geen verplichte velden",
  "progress.count":
    "{done, number} van {total, plural, one {# verplicht veld} other {# verplichte velden}} ingevuld",
  "progress.allDone":
    "{total, plural, one {Het verplichte veld is ingevuld.} other {Alle # verplichte velden zijn ingevuld.}}",
  "progress.label": "Verplichte velden ingevuld",
  "finish.fillIn":
    "Vul nog {count, plural, one {# verplicht veld} other {# verplichte velden}} in om te voltooien.",
  "finish.consent": "Ga naast Voltooien akkoord met elektronisch ondertekenen om te voltooien.",
  "next.consent":
    "Alle verplichte velden zijn ingevuld. Ga akkoord met elektronisch ondertekenen en selecteer daarna Voltooien.",
  "next.finish": "Alles is ingevuld. Selecteer Voltooien om te ondertekenen.",
  "actions.label": "Voortgang en acties voor ondertekenen",
  "actions.consent":
    "Ik ga akkoord met elektronisch ondertekenen en met het feit dat mijn elektronische handtekening juridisch gelijkwaardig is aan mijn handgeschreven handtekening.",
  "actions.consentAll": "Alles lezen",
  "actions.decline": "Weigeren",
  "actions.next": "Volgend veld",
  "actions.signing": "Bezig met ondertekenen…",
  "actions.finish": "Voltooien",
  "submit.problems": "Los {count, plural, one {# probleem} other {# problemen}} op voordat u ondertekent.",
  "submit.closed": "Dit verzoek kan niet meer worden ondertekend.",

  "applied.again": "{label} geplaatst op pagina {page}. Selecteer opnieuw om te wijzigen.",
  "applied.one": "{label} geplaatst op pagina {page}.",
  "applied.all":
    "{kind, select, initials {Geplaatst in alle {count} velden voor initialen.} other {Geplaatst in alle {count} handtekeningvelden.}}",

  "zoom.legend": "Zoomen in document",
  "zoom.out": "Uitzoomen",
  "zoom.in": "Inzoomen",
  "zoom.fit": "Aanpassen aan breedte",

  "document.position": "Document {index} van {total}",
  "document.pages": "{pages, plural, one {# pagina} other {# pagina’s}}",
  "document.loadFailed": "Dit document kon niet worden geladen.",
  "page.loading": "Pagina {page} wordt geladen…",
  "page.unavailable": "Pagina niet beschikbaar",
  "page.label": "Pagina {page} van {total}",

  "inPerson.title": "Persoonlijk ondertekenen",
  "inPerson.body":
    "<b>{host}</b> begeleidt deze ondertekening op dit apparaat. Geef het apparaat aan <b>{name}</b>, die gaat ondertekenen.",
  "inPerson.continue": "Ik ben {name}: doorgaan",
  "header.hostedBy": "Persoonlijk, begeleid door <b>{host}</b>",

  "type.signature": "Handtekening",
  "type.initials": "Initialen",
  "type.date_signed": "Datum ondertekening",
  "type.text": "Tekst",
  "type.checkbox": "Selectievakje",
  "type.name": "Volledige naam",
  "type.email": "E-mail",
  "type.date": "Datum",
  "type.number": "Getal",
  "type.dropdown": "Keuzelijst",
  "type.radio": "Optie",
  "type.attachment": "Bijlage",

  "field.required": "verplicht",
  "field.optional": "optioneel",
  "field.described": "{label}, {requirement}, pagina {page}",
  "field.sign": "Ondertekenen",
  "field.initial": "Paraferen",
  "field.toSign": "{action}: {label}, {requirement}, pagina {page}",
  "field.signedTyped": "{text}: {label}, ondertekend, pagina {page}. Selecteer om te wijzigen",
  "field.signedDrawn": "{label}, ondertekend (getekend), pagina {page}. Selecteer om te wijzigen",
  "field.dateSigned": "Datum ondertekening, wordt automatisch ingevuld wanneer u voltooit, pagina {page}",
  "field.choose": "Kiezen…",
  "field.pickDate": "Kies een datum",
  "field.pickedDate": "{date}: {label}, {requirement}, pagina {page}. Selecteer om te wijzigen",
  "field.toPickDate": "Kies een datum: {label}, {requirement}, pagina {page}",
  "field.numberHint":
    "{label}, een getal{range, select, both { van {min} tot en met {max}} min { van minimaal {min}} max { van maximaal {max}} other {}}, {requirement}, pagina {page}",
  "field.notANumber": "Voer een getal in, zoals 42 of 3,5.",
  "field.tooSmall": "Voer {min} of meer in.",
  "field.tooLarge": "Voer {max} of minder in.",
  "field.radioOption": "{option}, {label}, {requirement}, pagina {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Vink minstens # vakje aan.} other {Vink minstens # vakjes aan.}}{most, plural, =0 {} one { Vink hoogstens # vakje aan.} other { Vink hoogstens # vakjes aan.}}",
  "field.attach": "Bestand bijvoegen",
  "field.attaching": "Bezig met bijvoegen…",
  "field.toAttach": "Bestand bijvoegen: {label}, {requirement}, pagina {page}",
  "field.attachedFile": "{filename}: {label}, bijgevoegd, pagina {page}. Selecteer om te vervangen",
  "attach.tooLarge": "Dit bestand is groter dan 10 MB. Voeg een kleiner bestand bij.",
  "attach.wrongType": "Voeg een pdf of een PNG- of JPEG-afbeelding bij.",
  "attach.failed": "Het bestand kon niet worden bijgevoegd. Probeer het opnieuw.",
  "date.title": "Kies een datum",
  "date.apply": "Toepassen",
  "date.clear": "Wissen",
  "filled.by": "{label}, ingevuld door {name}",
  "filled.byWithValue": "{label}, ingevuld door {name}: {value}",

  "signature.title": "{kind, select, initials {Uw initialen vastleggen} other {Uw handtekening vastleggen}}",
  "signature.how": "{kind, select, initials {Zo maakt u uw initialen} other {Zo maakt u uw handtekening}}",
  "signature.tabType": "Typen",
  "signature.tabDraw": "Tekenen",
  "signature.typeLabel": "{kind, select, initials {Uw initialen} other {Uw volledige naam}}",
  "signature.preview": "Voorbeeld",
  "signature.drawHint":
    "Teken met uw muis, pen of vinger. Gebruikt u het toetsenbord, kies dan het tabblad Typen.",
  "signature.canvas":
    "{kind, select, initials {Tekenvlak voor uw initialen} other {Tekenvlak voor uw handtekening}}",
  "signature.clear": "Wissen",
  "signature.typeFirst":
    "{kind, select, initials {Typ eerst uw initialen.} other {Typ eerst uw handtekening.}}",
  "signature.drawFirst":
    "{kind, select, initials {Teken eerst uw initialen in het vak of gebruik het tabblad Typen.} other {Teken eerst uw handtekening in het vak of gebruik het tabblad Typen.}}",
  "signature.applyAll":
    "{kind, select, initials {Plaatsen in alle {count} velden voor initialen} other {Plaatsen in alle {count} handtekeningvelden}}",
  "signature.legal":
    "{kind, select, initials {Als u Toepassen selecteert, neemt u deze aan als uw elektronische initialen voor dit verzoek.} other {Als u Toepassen selecteert, neemt u deze aan als uw elektronische handtekening voor dit verzoek.}}",
  "signature.apply": "Toepassen",

  "decline.title": "Ondertekenen weigeren",
  "decline.description":
    "De afzender krijgt te horen dat u hebt geweigerd en waarom. Daarna kunt u dit verzoek niet meer ondertekenen.",
  "decline.reason": "Reden van weigering",
  "decline.characters": "{count, number} / {max, number} tekens",
  "decline.missing": "Laat de afzender weten waarom u weigert.",
  "decline.declining": "Bezig met weigeren…",

  "reassign.offer": "Moet iemand anders ondertekenen?",
  "reassign.title": "Aan iemand anders toewijzen",
  "reassign.description":
    "Die persoon ontvangt per e-mail een link om in uw plaats te ondertekenen. Uw eigen link werkt dan niet meer, en de afzender ziet wie u hebt gekozen en waarom.",
  "reassign.name": "Naam van de persoon",
  "reassign.email": "E-mailadres van de persoon",
  "reassign.reason": "Reden",
  "reassign.nameMissing": "Vul de naam in van de persoon die in uw plaats ondertekent.",
  "reassign.emailMissing": "Vul het e-mailadres van die persoon in: de link wordt daarheen gestuurd.",
  "reassign.reasonMissing": "Laat de afzender weten waarom.",
  "reassign.confirm": "Toewijzen",
};
