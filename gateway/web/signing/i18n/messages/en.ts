/**
 * The signing page's words in English, the catalogue every other language translates: ICU
 * MessageFormat (plural, select, <b>…</b> for emphasis). An id added here has to be added to every
 * language, which the compiler and i18n/catalogues.test.ts both hold.
 */
export const en = {
  "document.title": "Sign: {title}",
  "language.label": "Language",
  "common.tryAgain": "Try again",
  "common.cancel": "Cancel",
  "common.close": "Close",
  "common.required": "(required)",
  "common.somethingWrong": "Something went wrong. Please try again.",
  "common.network": "We could not reach the server. Check your connection and try again.",

  "loading.title": "Loading your documents…",
  "loading.body": "This takes a moment.",
  "error.title": "We could not load this signing request",
  "ended.requestTitle": "This request can no longer be signed",
  "ended.sessionTitle": "This signing session has ended",
  "ended.sessionBody":
    "For your security, signing sessions expire. Open the link from your e-mail again to continue.",
  "redirecting.title": "Done. Taking you back…",
  "redirecting.body": "You are being returned to the site you came from.",
  "declined.title": "You declined to sign",
  "declined.body":
    "The sender can see that you declined and why. There is nothing more you need to do; you can close this page.",
  "reassigned.title": "You assigned this request to someone else",
  "reassigned.body":
    "{name} ({email}) has been e-mailed a link to sign in your place. The sender can see who you chose and why. Your link no longer works; you can close this page.",

  "signed.title": "You have signed",
  "signed.othersBody":
    "Thank you. Others still have to sign; we will e-mail you the completed document once everyone has. You can close this page.",
  "complete.title": "The document is complete",
  "complete.body": "Everyone has signed, and the document is sealed. Download your copy:",
  "everyoneSigned.title": "Everyone has signed",
  "sealing.delayed":
    "Sealing the document is taking longer than it should. The sender has been told; the completed document will be e-mailed to you once it is sealed. You can close this page.",
  "sealing.body": "Sealing the document. This takes a few seconds; your copy will be ready to download here.",
  "closed.cancelled.title": "This request was cancelled",
  "closed.cancelled.body": "The sender cancelled this request, so it can no longer be signed.",
  "closed.expired.title": "This request has expired",
  "closed.expired.body": "It can no longer be signed. Ask the sender to send it again.",
  "closed.declined.title": "This request was declined",
  "closed.declined.body": "Another recipient declined to sign, so it can no longer be signed.",
  "closed.completed.title": "This request is complete",
  "closed.completed.body": "Everyone has signed; there is nothing left for you to sign.",
  "download.signed": "Download the signed document",
  "copy.download": "Download what you signed",
  "copy.note":
    "A copy with your signature, for your records until everyone has signed. The completed document, with its certificate and seal, follows.",

  "gate.title": "Confirm it is you",
  "gate.lead":
    "{hasSender, select, yes {{sender} asks you} other {The sender asks you}} to sign <b>{title}</b>. Before the document is shown, give the {count, plural, one {code} other {codes}} they asked for.",
  "gate.accessCode.label": "Access code",
  "gate.accessCode.hint":
    "The sender gave it to you another way: by phone, text or letter. It is not in the e-mail.",
  "gate.accessCode.missing": "Enter the access code the sender gave you.",
  "gate.accessCode.wrong":
    "That is not the access code the sender gave you. {left, plural, one {# attempt} other {# attempts}} left before a temporary lock.",
  "gate.emailCode.label": "Code from your e-mail",
  "gate.emailCode.sent": "We sent a six-digit code to {address}. It works for 10 minutes.",
  "gate.emailCode.willSend": "We will send a six-digit code to {address}.",
  "gate.emailCode.yourAddress": "your address",
  "gate.emailCode.missing": "Enter the code from the e-mail.",
  "gate.emailCode.askFirst": "Ask for a code first, then enter it here.",
  "gate.emailCode.wrong":
    "That is not the code we e-mailed you. {left, plural, one {# attempt} other {# attempts}} left before a temporary lock.",
  "gate.emailCode.send": "Send me a code",
  "gate.emailCode.sendNew": "Send a new code",
  "gate.continue": "Continue to the document",
  "gate.locked.title": "Too many wrong codes",
  "gate.locked.body":
    "For your security, this request is locked until <b>{time}</b>. Try again then, or ask {hasSender, select, yes {{sender}} other {the sender}} for the right code.",

  "header.skip": "Skip to the documents",
  "header.from": "From <b>{sender}</b>",
  "header.signingAs": "Signing as <b>{name}</b> <muted>({email})</muted>",
  "header.viewingAs": "Viewing as <b>{name}</b> <muted>({email})</muted>",
  "header.messageFrom": "{hasSender, select, yes {Message from {sender}} other {Message from the sender}}",
  "howTo.title": "How to sign",
  "howTo.body":
    "Fill in the highlighted fields in the documents below, then agree to sign electronically and select <b>Finish</b> at the bottom of the page.",
  "howTo.requiredMark": "Fields marked * are required.",
  "test.notice": "A test: these documents were sent to try the service out. Signing them binds no one.",
  "viewer.title": "You are asked to view these documents",
  "viewer.body":
    "There is nothing to sign. Opening them is your part, and it is recorded: the sender has been told. You can close this page when you have read them.",
  "approver.title": "You are asked to approve these documents",
  "approver.body":
    "Read them, then approve or decline. You sign nothing: your approval is recorded with its time, your address and your browser.",
  "approver.consent": "I agree that selecting Approve is my electronic approval of these documents.",
  "approver.approve": "Approve",
  "approver.approving": "Approving…",
  "approved.title": "You have approved",
  "header.approvingAs": "Approving as <b>{name}</b> <muted>({email})</muted>",

  "progress.none": "No required fields",
  "progress.count":
    "{done, number} of {total, plural, one {# required field} other {# required fields}} done",
  "progress.allDone":
    "{total, plural, one {The required field is done.} other {All # required fields done.}}",
  "progress.label": "Required fields done",
  "finish.fillIn":
    "Fill in {count, plural, one {# more required field} other {# more required fields}} to finish.",
  "finish.consent": "Agree to sign electronically, beside Finish, to finish.",
  "next.consent": "All required fields are done. Agree to sign electronically, then select Finish.",
  "next.finish": "Everything is filled in. Select Finish to sign.",
  "actions.label": "Signing progress and actions",
  "actions.consent":
    "I agree to sign electronically and that my electronic signature is the legal equivalent of my handwritten signature.",
  "actions.consentAll": "Read all",
  "actions.decline": "Decline",
  "actions.next": "Next field",
  "actions.signing": "Signing…",
  "actions.finish": "Finish",
  "submit.problems": "{count, plural, one {# problem} other {# problems}} to fix before signing.",
  "submit.closed": "This request can no longer be signed.",

  "applied.again": "{label} applied on page {page}. Select it again to change.",
  "applied.one": "{label} applied on page {page}.",
  "applied.all":
    "{kind, select, initials {Applied to all {count} initials fields.} other {Applied to all {count} signature fields.}}",

  "zoom.legend": "Document zoom",
  "zoom.out": "Zoom out",
  "zoom.in": "Zoom in",
  "zoom.fit": "Fit width",

  "document.position": "Document {index} of {total}",
  "document.pages": "{pages, plural, one {# page} other {# pages}}",
  "document.loadFailed": "This document could not be loaded.",
  "page.loading": "Loading page {page}…",
  "page.unavailable": "Page unavailable",
  "page.label": "Page {page} of {total}",

  "inPerson.title": "Signing in person",
  "inPerson.body":
    "<b>{host}</b> is hosting this signing on this device. Please hand it to <b>{name}</b>, who signs.",
  "inPerson.continue": "I am {name}: continue",
  "header.hostedBy": "In person, hosted by <b>{host}</b>",

  "type.signature": "Signature",
  "type.initials": "Initials",
  "type.date_signed": "Date signed",
  "type.text": "Text",
  "type.checkbox": "Checkbox",
  "type.name": "Full name",
  "type.email": "E-mail",
  "type.date": "Date",
  "type.number": "Number",
  "type.dropdown": "Choice",
  "type.radio": "Option",
  "type.attachment": "Attachment",

  "field.required": "required",
  "field.optional": "optional",
  "field.described": "{label}, {requirement}, page {page}",
  "field.sign": "Sign",
  "field.initial": "Initial",
  "field.toSign": "{action}: {label}, {requirement}, page {page}",
  "field.signedTyped": "{text}: {label}, signed, page {page}. Select to change",
  "field.signedDrawn": "{label}, signed (drawn), page {page}. Select to change",
  "field.dateSigned": "Date signed, filled in automatically when you finish, page {page}",
  "field.choose": "Choose…",
  "field.pickDate": "Pick a date",
  "field.pickedDate": "{date}: {label}, {requirement}, page {page}. Select to change",
  "field.toPickDate": "Pick a date: {label}, {requirement}, page {page}",
  "field.numberHint":
    "{label}, a number{range, select, both { from {min} to {max}} min { of at least {min}} max { of at most {max}} other {}}, {requirement}, page {page}",
  "field.notANumber": "Enter a number, such as 42 or 3.5.",
  "field.tooSmall": "Enter {min} or more.",
  "field.tooLarge": "Enter {max} or less.",
  "field.radioOption": "{option}, {label}, {requirement}, page {page}",
  "field.groupCount":
    "{least, plural, =0 {} one {Check at least # box.} other {Check at least # boxes.}}{most, plural, =0 {} one { Check at most # box.} other { Check at most # boxes.}}",
  "field.attach": "Attach a file",
  "field.attaching": "Attaching…",
  "field.toAttach": "Attach a file: {label}, {requirement}, page {page}",
  "field.attachedFile": "{filename}: {label}, attached, page {page}. Select to replace",
  "attach.tooLarge": "This file is larger than 10 MB. Attach a smaller one.",
  "attach.wrongType": "Attach a PDF, or a PNG or JPEG image.",
  "attach.failed": "The file could not be attached. Try again.",
  "date.title": "Pick a date",
  "date.apply": "Apply",
  "date.clear": "Clear",
  "filled.by": "{label}, filled in by {name}",
  "filled.byWithValue": "{label}, filled in by {name}: {value}",

  "signature.title": "{kind, select, initials {Adopt your initials} other {Adopt your signature}}",
  "signature.how":
    "{kind, select, initials {How to create your initials} other {How to create your signature}}",
  "signature.tabType": "Type",
  "signature.tabDraw": "Draw",
  "signature.typeLabel": "{kind, select, initials {Your initials} other {Your full name}}",
  "signature.preview": "Preview",
  "signature.drawHint": "Draw with your mouse, pen or finger. Keyboard users can use the Type tab.",
  "signature.canvas":
    "{kind, select, initials {Drawing area for your initials} other {Drawing area for your signature}}",
  "signature.clear": "Clear",
  "signature.typeFirst":
    "{kind, select, initials {Type your initials first.} other {Type your signature first.}}",
  "signature.drawFirst":
    "{kind, select, initials {Draw your initials in the box first, or use the Type tab.} other {Draw your signature in the box first, or use the Type tab.}}",
  "signature.applyAll":
    "{kind, select, initials {Apply to all {count} initials fields} other {Apply to all {count} signature fields}}",
  "signature.legal":
    "{kind, select, initials {By selecting Apply, you adopt these as your electronic initials for this request.} other {By selecting Apply, you adopt this as your electronic signature for this request.}}",
  "signature.apply": "Apply",

  "decline.title": "Decline to sign",
  "decline.description":
    "The sender will be told that you declined, with your reason. You will not be able to sign this request afterwards.",
  "decline.reason": "Reason for declining",
  "decline.characters": "{count, number} / {max, number} characters",
  "decline.missing": "Please tell the sender why you are declining.",
  "decline.declining": "Declining…",

  "reassign.offer": "Someone else should sign?",
  "reassign.title": "Assign to someone else",
  "reassign.description":
    "They will be e-mailed a link to sign in your place. Your own link stops working, and the sender sees who you chose and why.",
  "reassign.name": "Their name",
  "reassign.email": "Their e-mail",
  "reassign.reason": "Why",
  "reassign.nameMissing": "Give the name of the person who signs instead.",
  "reassign.emailMissing": "Give their e-mail address: their link goes there.",
  "reassign.reasonMissing": "Tell the sender why.",
  "reassign.confirm": "Assign",
} as const;

export type MessageId = keyof typeof en;

/** A translation: every id of the English catalogue, none other. */
export type Catalogue = Record<MessageId, string>;
