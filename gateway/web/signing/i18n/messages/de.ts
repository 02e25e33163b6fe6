import type { Catalogue } from "./en";

export const de: Catalogue = {
  "document.title": "Unterschreiben: {title}",
  "language.label": "Sprache",
  "common.tryAgain": "Erneut versuchen",
  "common.cancel": "Abbrechen",
  "common.close": "Schließen",
  "common.required": "(erforderlich)",
  "common.somethingWrong": "Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.",
  "common.network":
    "Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.",
  "loading.title": "Ihre Dokumente werden geladen …",
  "loading.body": "Dies dauert einen Moment.",
  "error.title": "Diese Signaturanfrage konnte nicht geladen werden",
  "ended.requestTitle": "Diese Anfrage kann nicht mehr unterschrieben werden",
  "ended.sessionTitle": "Diese Sitzung zum Unterschreiben ist beendet",
  "ended.sessionBody":
    "Zu Ihrer Sicherheit laufen Sitzungen zum Unterschreiben ab. Öffnen Sie den Link aus Ihrer E-Mail erneut, um fortzufahren.",
  "redirecting.title": "Fertig. Sie werden zurückgeleitet …",
  "redirecting.body": "Sie werden zu der Website zurückgeleitet, von der Sie gekommen sind.",
  "declined.title": "Sie haben das Unterschreiben abgelehnt",
  "declined.body":
    "Der Absender sieht, dass Sie abgelehnt haben und warum. Sie müssen nichts weiter tun und können diese Seite schließen.",
  "reassigned.title": "Sie haben diese Anfrage einer anderen Person zugewiesen",
  "reassigned.body":
    "{name} ({email}) hat per E-Mail einen Link erhalten, um an Ihrer Stelle zu unterschreiben. Der Absender sieht, wen Sie gewählt haben und warum. Ihr Link funktioniert nicht mehr; Sie können diese Seite schließen.",
  "signed.title": "Sie haben unterschrieben",
  "signed.othersBody":
    "Vielen Dank. Andere müssen noch unterschreiben; sobald alle unterschrieben haben, senden wir Ihnen das fertige Dokument per E-Mail. Sie können diese Seite schließen.",
  "complete.title": "Das Dokument ist abgeschlossen",
  "complete.body":
    "Alle haben unterschrieben, und das Dokument ist versiegelt. Laden Sie Ihre Kopie herunter:",
  "everyoneSigned.title": "Alle haben unterschrieben",
  "sealing.delayed":
    "Das Versiegeln des Dokuments dauert länger als vorgesehen. Der Absender wurde informiert; das fertige Dokument wird Ihnen per E-Mail gesendet, sobald es versiegelt ist. Sie können diese Seite schließen.",
  "sealing.body":
    "Das Dokument wird versiegelt. Dies dauert einige Sekunden; danach können Sie Ihre Kopie hier herunterladen.",
  "closed.cancelled.title": "Diese Anfrage wurde storniert",
  "closed.cancelled.body":
    "Der Absender hat diese Anfrage storniert, daher kann sie nicht mehr unterschrieben werden.",
  "closed.expired.title": "Diese Anfrage ist abgelaufen",
  "closed.expired.body":
    "Sie kann nicht mehr unterschrieben werden. Bitten Sie den Absender, sie erneut zu senden.",
  "closed.declined.title": "Diese Anfrage wurde abgelehnt",
  "closed.declined.body":
    "Ein anderer Empfänger hat das Unterschreiben abgelehnt, daher kann die Anfrage nicht mehr unterschrieben werden.",
  "closed.completed.title": "Diese Anfrage ist abgeschlossen",
  "closed.completed.body": "Alle haben unterschrieben; es gibt nichts mehr für Sie zu unterschreiben.",
  "download.signed": "Unterschriebenes Dokument herunterladen",
  "copy.download": "Unterschriebenes Dokument herunterladen",
  "copy.note":
    "Eine Kopie mit Ihrer Unterschrift für Ihre Unterlagen, bis alle unterschrieben haben. Das fertige Dokument mit Zertifikat und Siegel folgt.",
  "gate.title": "Bestätigen Sie Ihre Identität",
  "gate.lead":
    "{hasSender, select, yes {{sender} bittet Sie} other {Der Absender bittet Sie}}, <b>{title}</b> zu unterschreiben. Bevor das Dokument angezeigt wird, geben Sie {count, plural, one {den angeforderten Code} other {die angeforderten Codes}} ein.",
  "gate.accessCode.label": "Zugangscode",
  "gate.accessCode.hint":
    "Der Absender hat ihn Ihnen auf anderem Weg mitgeteilt: per Telefon, SMS oder Brief. Er steht nicht in der E-Mail.",
  "gate.accessCode.missing": "Geben Sie den Zugangscode ein, den Sie vom Absender erhalten haben.",
  "gate.accessCode.wrong":
    "Das ist nicht der Zugangscode, den Sie vom Absender erhalten haben. Noch {left, plural, one {# Versuch} other {# Versuche}} bis zu einer vorübergehenden Sperre.",
  "gate.emailCode.label": "Code aus Ihrer E-Mail",
  "gate.emailCode.sent":
    "Wir haben einen sechsstelligen Code an {address} gesendet. Er ist 10 Minuten lang gültig.",
  "gate.emailCode.willSend": "Wir senden einen sechsstelligen Code an {address}.",
  "gate.emailCode.yourAddress": "Ihre Adresse",
  "gate.emailCode.missing": "Geben Sie den Code aus der E-Mail ein.",
  "gate.emailCode.askFirst": "Fordern Sie zuerst einen Code an und geben Sie ihn dann hier ein.",
  "gate.emailCode.wrong":
    "Das ist nicht der Code, den wir Ihnen per E-Mail gesendet haben. Noch {left, plural, one {# Versuch} other {# Versuche}} bis zu einer vorübergehenden Sperre.",
  "gate.emailCode.send": "Code an mich senden",
  "gate.emailCode.sendNew": "Neuen Code senden",
  "gate.continue": "Weiter zum Dokument",
  "gate.locked.title": "Zu viele falsche Codes",
  "gate.locked.body":
    "Zu Ihrer Sicherheit ist diese Anfrage bis <b>{time}</b> gesperrt. Versuchen Sie es dann erneut, oder bitten Sie {hasSender, select, yes {{sender}} other {den Absender}} um den richtigen Code.",
  "header.skip": "Zu den Dokumenten springen",
  "header.from": "Von <b>{sender}</b>",
  "header.signingAs": "Unterschreiben als <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Ansicht als <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Nachricht von {sender}} other {Nachricht vom Absender}}",
  "howTo.title": "So unterschreiben Sie",
  "howTo.body":
    "Füllen Sie die markierten Felder in den Dokumenten unten aus, stimmen Sie dann der elektronischen Unterzeichnung zu und wählen Sie unten auf der Seite <b>Fertigstellen</b>.",
  "howTo.requiredMark": "Mit * gekennzeichnete Felder sind Pflichtfelder.",
  "test.notice":
    "Ein Test: Diese Dokumente wurden zum Ausprobieren des Dienstes gesendet. Ihre Unterschrift bindet niemanden.",
  "viewer.title": "Sie sollen diese Dokumente ansehen",
  "viewer.body":
    "Sie müssen nichts unterschreiben. Ihr Teil ist das Öffnen, und es ist festgehalten: Der Absender wurde benachrichtigt. Sie können diese Seite schließen, wenn Sie die Dokumente gelesen haben.",
  "approver.title": "Sie sollen diese Dokumente genehmigen",
  "approver.body":
    "Lesen Sie sie und genehmigen oder lehnen Sie sie ab. Sie unterschreiben nichts: Ihre Genehmigung wird mit Uhrzeit, Ihrer Adresse und Ihrem Browser festgehalten.",
  "approver.consent":
    "Ich bin einverstanden, dass die Auswahl von „Genehmigen“ meine elektronische Genehmigung dieser Dokumente ist.",
  "approver.approve": "Genehmigen",
  "approver.approving": "Wird genehmigt…",
  "approved.title": "Sie haben genehmigt",
  "header.approvingAs": "Genehmigung als <b>{name}</b> <muted>({email})</muted>",
  "progress.none": "Keine Pflichtfelder",
  "progress.count":
    "{done, number} von {total, plural, one {# Pflichtfeld} other {# Pflichtfeldern}} ausgefüllt",
  "progress.allDone":
    "{total, plural, one {Das Pflichtfeld ist ausgefüllt.} other {Alle # Pflichtfelder sind ausgefüllt.}}",
  "progress.label": "Ausgefüllte Pflichtfelder",
  "finish.fillIn":
    "Füllen Sie noch {count, plural, one {# Pflichtfeld} other {# Pflichtfelder}} aus, um abzuschließen.",
  "finish.consent":
    "Stimmen Sie neben „Fertigstellen“ der elektronischen Unterzeichnung zu, um abzuschließen.",
  "next.consent":
    "Alle Pflichtfelder sind ausgefüllt. Stimmen Sie der elektronischen Unterzeichnung zu und wählen Sie dann „Fertigstellen“.",
  "next.finish": "Alles ist ausgefüllt. Wählen Sie „Fertigstellen“, um zu unterschreiben.",
  "actions.label": "Fortschritt und Aktionen beim Unterschreiben",
  "actions.consent":
    "Ich stimme der elektronischen Unterzeichnung zu und erkenne an, dass meine elektronische Unterschrift meiner handschriftlichen Unterschrift rechtlich gleichwertig ist.",
  "actions.consentAll": "Alles lesen",
  "actions.decline": "Ablehnen",
  "actions.next": "Nächstes Feld",
  "actions.signing": "Wird unterschrieben …",
  "actions.finish": "Fertigstellen",
  "submit.problems":
    "Vor dem Unterschreiben {count, plural, one {muss # Problem} other {müssen # Probleme}} behoben werden.",
  "submit.closed": "Diese Anfrage kann nicht mehr unterschrieben werden.",
  "applied.again": "{label} auf Seite {page} eingefügt. Zum Ändern erneut auswählen.",
  "applied.one": "{label} auf Seite {page} eingefügt.",
  "applied.all":
    "{kind, select, initials {In alle {count} Initialenfelder eingefügt.} other {In alle {count} Unterschriftsfelder eingefügt.}}",
  "zoom.legend": "Dokumentzoom",
  "zoom.out": "Verkleinern",
  "zoom.in": "Vergrößern",
  "zoom.fit": "An Breite anpassen",
  "document.position": "Dokument {index} von {total}",
  "document.pages": "{pages, plural, one {# Seite} other {# Seiten}}",
  "document.loadFailed": "Dieses Dokument konnte nicht geladen werden.",
  "page.loading": "Seite {page} wird geladen …",
  "page.unavailable": "Seite nicht verfügbar",
  "page.label": "Seite {page} von {total}",
  "inPerson.title": "Unterschreiben vor Ort",
  "inPerson.body":
    "<b>{host}</b> begleitet diese Unterzeichnung auf diesem Gerät. Bitte geben Sie es <b>{name}</b> zum Unterschreiben.",
  "inPerson.continue": "Ich bin {name}: weiter",
  "header.hostedBy": "Vor Ort, begleitet von <b>{host}</b>",

  "type.signature": "Unterschrift",
  "type.initials": "Initialen",
  "type.date_signed": "Unterschriftsdatum",
  "type.text": "Text",
  "type.checkbox": "Kontrollkästchen",
  "type.name": "Vollständiger Name",
  "type.email": "E-Mail",
  "type.date": "Datum",
  "type.number": "Zahl",
  "type.dropdown": "Auswahl",
  "type.radio": "Option",
  "type.attachment": "Anhang",
  "field.required": "erforderlich",
  "field.optional": "optional",
  "field.described": "{label}, {requirement}, Seite {page}",
  "field.sign": "Unterschreiben",
  "field.initial": "Paraphieren",
  "field.toSign": "{action}: {label}, {requirement}, Seite {page}",
  "field.signedTyped": "{text}: {label}, unterschrieben, Seite {page}. Zum Ändern auswählen",
  "field.signedDrawn": "{label}, unterschrieben (gezeichnet), Seite {page}. Zum Ändern auswählen",
  "field.dateSigned": "Unterschriftsdatum, wird beim Fertigstellen automatisch eingetragen, Seite {page}",
  "field.choose": "Auswählen …",
  "field.pickDate": "Datum auswählen",
  "field.pickedDate": "{date}: {label}, {requirement}, Seite {page}. Zum Ändern auswählen",
  "field.toPickDate": "Datum auswählen: {label}, {requirement}, Seite {page}",
  "field.numberHint":
    "{label}, eine Zahl{range, select, both { von {min} bis {max}} min { von mindestens {min}} max { von höchstens {max}} other {}}, {requirement}, Seite {page}",
  "field.notANumber": "Geben Sie eine Zahl ein, z. B. 42 oder 3,5.",
  "field.tooSmall": "Geben Sie {min} oder mehr ein.",
  "field.tooLarge": "Geben Sie {max} oder weniger ein.",
  "field.radioOption": "{option}, {label}, {requirement}, Seite {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Kreuzen Sie mindestens # Kästchen an.} other {Kreuzen Sie mindestens # Kästchen an.}}{most, plural, =0 {} one { Kreuzen Sie höchstens # Kästchen an.} other { Kreuzen Sie höchstens # Kästchen an.}}",
  "field.attach": "Datei anhängen",
  "field.attaching": "Wird angehängt …",
  "field.toAttach": "Datei anhängen: {label}, {requirement}, Seite {page}",
  "field.attachedFile": "{filename}: {label}, angehängt, Seite {page}. Zum Ersetzen auswählen",
  "attach.tooLarge": "Diese Datei ist größer als 10 MB. Hängen Sie eine kleinere Datei an.",
  "attach.wrongType": "Hängen Sie eine PDF-Datei oder ein PNG- oder JPEG-Bild an.",
  "attach.failed": "Die Datei konnte nicht angehängt werden. Versuchen Sie es erneut.",
  "date.title": "Datum auswählen",
  "date.apply": "Übernehmen",
  "date.clear": "Löschen",
  "filled.by": "{label}, ausgefüllt von {name}",
  "filled.byWithValue": "{label}, ausgefüllt von {name}: {value}",
  "signature.title":
    "{kind, select, initials {Ihre Initialen festlegen} other {Ihre Unterschrift festlegen}}",
  "signature.how":
    "{kind, select, initials {So erstellen Sie Ihre Initialen} other {So erstellen Sie Ihre Unterschrift}}",
  "signature.tabType": "Eingeben",
  "signature.tabDraw": "Zeichnen",
  "signature.typeLabel": "{kind, select, initials {Ihre Initialen} other {Ihr vollständiger Name}}",
  "signature.preview": "Vorschau",
  "signature.drawHint":
    "Zeichnen Sie mit Maus, Stift oder Finger. Mit der Tastatur können Sie den Tab „Eingeben“ verwenden.",
  "signature.canvas":
    "{kind, select, initials {Zeichenfläche für Ihre Initialen} other {Zeichenfläche für Ihre Unterschrift}}",
  "signature.clear": "Löschen",
  "signature.typeFirst":
    "{kind, select, initials {Geben Sie zuerst Ihre Initialen ein.} other {Geben Sie zuerst Ihre Unterschrift ein.}}",
  "signature.drawFirst":
    "{kind, select, initials {Zeichnen Sie zuerst Ihre Initialen in das Feld, oder verwenden Sie den Tab „Eingeben“.} other {Zeichnen Sie zuerst Ihre Unterschrift in das Feld, oder verwenden Sie den Tab „Eingeben“.}}",
  "signature.applyAll":
    "{kind, select, initials {In alle {count} Initialenfelder einfügen} other {In alle {count} Unterschriftsfelder einfügen}}",
  "signature.legal":
    "{kind, select, initials {Mit „Übernehmen“ legen Sie diese als Ihre elektronischen Initialen für diese Anfrage fest.} other {Mit „Übernehmen“ legen Sie diese als Ihre elektronische Unterschrift für diese Anfrage fest.}}",
  "signature.apply": "Übernehmen",
  "decline.title": "Unterschreiben ablehnen",
  "decline.description":
    "Der Absender wird über Ihre Ablehnung und deren Grund informiert. Danach können Sie diese Anfrage nicht mehr unterschreiben.",
  "decline.reason": "Grund für die Ablehnung",
  "decline.characters": "{count, number} / {max, number} Zeichen",
  "decline.missing": "Bitte teilen Sie dem Absender mit, warum Sie ablehnen.",
  "decline.declining": "Wird abgelehnt …",
  "reassign.offer": "Soll jemand anderes unterschreiben?",
  "reassign.title": "Einer anderen Person zuweisen",
  "reassign.description":
    "Die Person erhält per E-Mail einen Link, um an Ihrer Stelle zu unterschreiben. Ihr eigener Link funktioniert dann nicht mehr, und der Absender sieht, wen Sie gewählt haben und warum.",
  "reassign.name": "Name der Person",
  "reassign.email": "E-Mail-Adresse der Person",
  "reassign.reason": "Grund",
  "reassign.nameMissing": "Geben Sie den Namen der Person an, die stattdessen unterschreibt.",
  "reassign.emailMissing": "Geben Sie die E-Mail-Adresse der Person an: Dorthin wird ihr Link gesendet.",
  "reassign.reasonMissing": "Teilen Sie dem Absender den Grund mit.",
  "reassign.confirm": "Zuweisen",
};
