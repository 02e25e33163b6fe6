/** Signature requests, their recipients, fields and audit trail as the public API reads and writes them. */
import { MAX_FRAME_ORIGINS } from "@countersign/domain";
import { z } from "zod";
import { fieldInputShape, placedFieldShape, textTagsInput } from "./templates.js";
import { id, instant, optionalTimestamp, page, text, timestamp, wholeNumber } from "./values.js";
import { RecipientKind, RecipientStatus, RequestStatus, SignerLocale } from "./vocabulary.js";

export const Host = z
  .strictObject({
    name: text().meta({ description: "The host's name, as the audit trail and the certificate show it." }),
    email: text().meta({ description: "The host's e-mail." }),
  })
  .meta({ id: "Host" });

export const NewRecipient = z
  .strictObject({
    name: text().meta({ description: "The recipient's name, as the e-mails and the certificate show it." }),
    email: text().meta({ description: "Where signing links and the completed copy are sent." }),
    role: text().optional().meta({
      description:
        "For a signer: the role to fill. From a template, a template role (every role is filled by exactly one signer); from documents, the name the fields use. Compared trimmed and case-insensitively.",
    }),
    kind: RecipientKind.optional().meta({ default: "signer" }),
    routingOrder: wholeNumber().optional().meta({ description: "Defaults to the role's order (1 for cc)." }),
    clientUserId: text().optional().meta({
      description:
        "Your id for a signer who signs embedded in your app (see the embedded signing URL); no e-mail is sent to them.",
    }),
    externalId: text().max(100).optional().meta({
      description:
        "Your own id for the recipient (a user or contact id in your app), answered with them and in webhook events; unique in the request.",
    }),
    accessCode: text().optional().meta({
      description:
        "For a signer: a code, 4 to 50 characters, you give them another way (a call, a letter); the signing page asks for it before the document is shown. Kept only as a keyed hash: it is never answered back. Every five wrong codes lock the signer out, from 15 minutes up to 4 hours.",
      writeOnly: true,
    }),
    emailCode: z.boolean().optional().meta({
      description:
        "For a signer: the signing page e-mails them a one-time code and asks for it before the document is shown, proving they read that mailbox.",
      default: false,
    }),
    locale: SignerLocale.optional().meta({
      description:
        "The language of the recipient's e-mails and signing page (the signer can switch on the page). Absent: the page follows their browser's language and the e-mails are in English.",
    }),
    host: Host.optional().meta({
      description:
        "For a signer who signs in person: the person who hosts the signing on their own device, such as you in the console. No link is e-mailed to the signer; when it is their turn the host starts the signing (the console's Sign in person, or an embedded signing URL), and the audit trail and the certificate name both.",
    }),
  })
  .meta({ id: "NewRecipient" });

export const MergeFields = z.record(text().max(200), text().max(1000)).meta({
  id: "MergeFields",
  description:
    "Values you fill in before anyone sees the request, by field label (matched ignoring case): every text, number or date field with the label shows the value (a date as YYYY-MM-DD), which its signer may change. A label no such field has is a 422.",
});

export const NewField = z
  .strictObject({
    ...fieldInputShape,
    documentId: id("One of documentIds; the first when absent.").optional(),
  })
  .meta({ id: "NewField" });

export const SignatureRequestInput = z
  .strictObject({
    title: text().meta({ description: "What the recipients see as the subject, such as `NDA with Acme`." }),
    message: text().optional().meta({ description: "Your note to the recipients, quoted in every e-mail." }),
    templateId: id("The template whose documents, roles and fields the request copies.").optional(),
    documentIds: z
      .array(id())
      .optional()
      .meta({ description: "The documents to sign, when there is no template." }),
    fields: z.array(NewField).optional().meta({
      description:
        "The fields, when there is no template; each names the role of the signer who fills it, and every signer's role needs a required signature field.",
    }),
    recipients: z.array(NewRecipient).meta({
      description: "The signers (one per template role, from a template) and any copy (cc) recipients.",
    }),
    expiresAt: instant("When an unfinished request expires; must be in the future.").optional(),
    send: z
      .boolean()
      .optional()
      .meta({ description: "Send at once instead of creating a draft.", default: false }),
    allowReassign: z.boolean().optional().meta({
      description:
        "Signers may hand the request to someone else from the signing page, with a reason (DocuSign's `allowReassign`).",
      default: false,
    }),
    externalId: text().max(200).optional().meta({
      description:
        "Your own id for the request (an order or contract number): answered with it, in its webhook events, and searchable with `?externalId=`. Several requests may share one.",
    }),
    lockSignerIdentity: z.boolean().optional().meta({
      description:
        "Each signer's name and e-mail fields are theirs as you gave them: the signing page shows them read-only, a different value is a 422, and no signer may hand the request to someone else (it overrides `allowReassign`). For an app that knows who its users are.",
      default: false,
    }),
    reminderEveryDays: wholeNumber().optional().meta({
      description:
        "Remind each recipient whose turn it is by e-mail this many days after their last e-mail, until the request ends or expires: 0 never, at most 30. Defaults to the workspace's `reminderEveryDays` (`/request-settings`).",
    }),
    expiryWarningDays: wholeNumber().optional().meta({
      description:
        "Warn the recipients whose turn it is, and the sender, this many days before `expiresAt`: 0 never, at most 30. Defaults to the workspace's `expiryWarningDays`.",
    }),
    mergeFields: MergeFields.optional(),
    textTags: textTagsInput,
  })
  .meta({
    id: "SignatureRequestInput",
    description:
      "From a template (`templateId`), or from documents (`documentIds` and `fields`): give one or the other.",
  });

export const EmailDelivery = z
  .strictObject({
    status: z.enum(["queued", "retrying", "sent", "failed", "not_sent"]).meta({
      description:
        "`queued`: not tried yet; `retrying`: a try failed and another is due at `nextAttemptAt`; `sent`: the SMTP server took it; `failed`: given up after its last try; `not_sent`: no longer needed (its link was replaced).",
    }),
    email: z
      .enum(["invitation", "resend", "reminder", "recipient_changed", "completed", "signing_code"])
      .meta({
        description:
          "Which e-mail it is: the invitation, the invitation sent again, a reminder, the invitation to a recipient whose address changed, the signed copy, or a one-time code the signer asked for (`emailCode`).",
      }),
    attempts: z.int().min(0),
    error: z.string().nullable().meta({
      description: "The last try's failure in words, with the SMTP server's reply; null when none failed.",
    }),
    queuedAt: timestamp,
    doneAt: optionalTimestamp.meta({ description: "When it was sent, given up or dropped." }),
    nextAttemptAt: optionalTimestamp.meta({ description: "When a retrying e-mail is tried again." }),
  })
  .meta({ id: "EmailDelivery", description: "Where the last e-mail to the recipient stands." });

export const Recipient = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    role: z.string().nullable().meta({ description: "The template role the signer fills." }),
    kind: RecipientKind,
    routingOrder: z.int().meta({
      description:
        "Recipients of the lowest order are notified first; the next order when they have all signed.",
    }),
    status: RecipientStatus,
    clientUserId: z
      .string()
      .nullable()
      .meta({ description: "Set for a signer who signs embedded in your app: no e-mail is sent." }),
    externalId: z.string().nullable().meta({ description: "Your own id for the recipient, as you gave it." }),
    viewedAt: optionalTimestamp,
    signedAt: optionalTimestamp,
    declinedAt: optionalTimestamp,
    declineReason: z.string().nullable(),
    emailDelivery: EmailDelivery.nullable().meta({
      description:
        "The last e-mail queued for the recipient; null when none was (a signer embedded in your app, or one whose routing order has not come).",
    }),
    authentication: z.array(z.enum(["access_code", "email_code"])).meta({
      description:
        "What the signer gives before the document is shown: `access_code` (yours) and `email_code` (one e-mailed to them); empty when nothing.",
    }),
    locale: SignerLocale.nullable().meta({
      description: "The language of the recipient's e-mails and signing page; null when none was set.",
    }),
    host: Host.nullable().meta({
      description:
        "Who hosts the signer's signing in person; null for a signer who signs from their own link.",
    }),
  })
  .meta({ id: "Recipient" });

/** What the sender filled into a field (`mergeFields`); absent where they filled in nothing. */
export const prefilledValue = z.string().optional().meta({
  description:
    "What you filled in (`mergeFields`): the signer sees it and may change it. Absent when nothing.",
});

export const RequestField = z
  .strictObject({
    ...placedFieldShape,
    recipientId: z.uuid(),
    documentId: z.uuid(),
    prefilled: prefilledValue,
  })
  .meta({ id: "RequestField" });

export const SignerAttachment = z
  .strictObject({
    fieldId: z.string(),
    recipientId: z.uuid(),
    documentId: z
      .uuid()
      .meta({ description: "The file, kept as a PDF document of the request (`kind: attachment`)." }),
    filename: z.string().meta({ description: "The name the signer's device gave it." }),
    contentType: z.enum(["application/pdf", "image/png", "image/jpeg"]).meta({
      description: "What the signer gave; an image is kept as a one-page PDF showing it.",
    }),
    sizeBytes: z.int(),
    sha256: z
      .string()
      .meta({ description: "The kept PDF's SHA-256, as the certificate of completion lists it." }),
    attachedAt: timestamp,
  })
  .meta({ id: "SignerAttachment" });

export const CompletionFailure = z
  .strictObject({
    reason: z.string().meta({ description: "What went wrong, in words." }),
    attempts: z.number().int().meta({ description: "How many times sealing was tried." }),
    failedAt: timestamp,
  })
  .meta({
    id: "CompletionFailure",
    description:
      "Every signer signed, but sealing the document failed at its last attempt. Cancel the request, or resend it to try sealing again once the cause is mended.",
  });

export const LegalHold = z
  .strictObject({
    reason: z.string(),
    placedBy: z.string().meta({ description: "The API key's name or the console user's e-mail." }),
    placedAt: timestamp,
  })
  .meta({ id: "LegalHold" });

export const Proposal = z
  .strictObject({
    proposedBy: z.string().meta({ description: "The name of the agent's API key that proposed it." }),
    proposedAt: timestamp,
    decision: z.enum(["pending", "approved", "rejected", "cancelled", "expired"]).meta({
      description:
        "`pending` while the request awaits approval; then whether a person approved it (and it was sent) or rejected it (and it was cancelled), or it was cancelled or expired before anyone decided.",
    }),
    decidedBy: z
      .string()
      .nullable()
      .meta({ description: "The e-mail of the person who decided; null while pending." }),
    decidedAt: optionalTimestamp,
    reason: z.string().nullable().meta({ description: "Why it was rejected; null otherwise." }),
  })
  .meta({
    id: "Proposal",
    description:
      "A request an agent's API key (`requests:propose`) would have sent: it waits, `awaiting_approval`, until an Organization Admin or the workspace's approver approves it in the console — then it is sent — or rejects it.",
  });

export const SignatureRequest = z
  .strictObject({
    id: z.uuid(),
    title: z.string(),
    message: z.string(),
    status: RequestStatus,
    templateId: z.uuid().nullable(),
    documentIds: z.array(z.uuid()),
    recipients: z.array(Recipient),
    fields: z.array(RequestField),
    signerAttachments: z.array(SignerAttachment).meta({
      description: "The files signers gave for their attachment fields, once they signed.",
    }),
    expiresAt: optionalTimestamp,
    agreementSetId: z.uuid().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
    sentAt: optionalTimestamp,
    completedAt: optionalTimestamp,
    cancelledAt: optionalTimestamp,
    cancelReason: z.string().nullable(),
    signedDocumentId: z.uuid().nullable(),
    completionFailure: CompletionFailure.nullable(),
    sender: z
      .strictObject({
        name: z.string().meta({ description: "The console user's e-mail, or the workspace's name." }),
        email: z
          .string()
          .nullable()
          .meta({ description: "Where recipients' replies go; none for an API key." }),
      })
      .meta({ description: "Who the request comes from, as its recipients see it." }),
    allowReassign: z.boolean().meta({ description: "Signers may hand the request to someone else." }),
    externalId: z.string().nullable().meta({ description: "Your own id for the request, as you gave it." }),
    lockSignerIdentity: z.boolean().meta({
      description: "Each signer's name and e-mail fields are theirs as you gave them, read-only.",
    }),
    test: z.boolean().meta({
      description:
        "Made with a test key: seen only with test keys, e-mailed to the outbox only, sealed as not legally binding.",
    }),
    reminderEveryDays: z.int().meta({
      description:
        "Days after their last e-mail that a recipient whose turn it is is reminded by the service; 0 for never.",
    }),
    expiryWarningDays: z.int().meta({
      description:
        "Days before `expiresAt` that the waiting recipients and the sender are warned; 0 for never.",
    }),
    expiryWarningSentAt: optionalTimestamp.meta({
      description:
        "When the recipients whose turn it was, and the sender, were warned that the request expires soon; null until then.",
    }),
    legalHold: LegalHold.nullable().meta({
      description:
        "While set, the workspace's retention leaves the request's documents and audit trail alone.",
    }),
    proposal: Proposal.nullable().meta({
      description: "Set on a request an agent's API key proposed instead of sending; null otherwise.",
    }),
    documentsDeletedAt: optionalTimestamp.meta({
      description:
        "When the workspace's retention deleted the request's documents (the audit trail says which, and whether it went too); null until then.",
    }),
    certificateDocumentId: z.uuid().nullable().meta({
      description:
        "The certificate of completion, kept as a document of its own when retention deleted a completed request's documents and kept its evidence.",
    }),
  })
  .meta({ id: "SignatureRequest" });

export const RequestSettings = z
  .strictObject({
    reminderEveryDays: wholeNumber().meta({
      description:
        "The reminder schedule of a new request that names none: each recipient whose turn it is is reminded this many days after their last e-mail; 0 for never (the default), at most 30.",
    }),
    expiryWarningDays: wholeNumber().meta({
      description:
        "How many days before a request expires the recipients whose turn it is, and the sender (a console user), are warned by e-mail; 0 for never, at most 30 (default 2). A request sent already that close to its expiry is not warned.",
    }),
    retentionDays: wholeNumber().nullable().optional().meta({
      description:
        "How many days after a request ends (completed, declined, cancelled or expired) its documents are deleted — the sealed PDF, the files signers attached, and the originals unless a template or another request still uses them — from 1 to 3650; `null` or absent keeps them for good (the default). Applies to every request of the workspace, those already ended too; a request on legal hold is passed by. Each deletion is the request's audit trail's next entry.",
    }),
    retentionDeletesEvidence: z.boolean().optional().meta({
      description:
        "Whether the audit trail goes with the documents: its entries are replaced by one recording the deletion, with the last hash of the chain it replaces. `false` (the default) keeps the trail, and keeps a completed request's certificate of completion as a document of its own (`certificateDocumentId`).",
    }),
    approverUserId: z.uuid().nullable().optional().meta({
      description:
        "The member (a user id from the team) who approves what agents' API keys propose, besides the Organization Admins; `null` or absent for the Organization Admins alone (the default).",
    }),
  })
  .meta({
    id: "RequestSettings",
    description:
      "The workspace's settings for its requests: the defaults new requests get (requests already made keep theirs) and the retention of every request's documents.",
  });

/** The settings as the service answers them: every field, `retentionDays` null when documents are kept. */
export const RequestSettingsInForce = RequestSettings.required().meta({ id: "RequestSettingsInForce" });

export const SignatureRequestPage = page(SignatureRequest, "SignatureRequestPage");

export const SignatureRequestQuery = z.object({
  status: RequestStatus.optional().meta({ description: "Only requests in this state." }),
  q: text().max(200).optional().meta({
    description:
      "Only requests whose title, or a recipient's name or e-mail, contains these characters (ignoring case).",
  }),
  createdFrom: instant("Only requests created at or after this time.").optional(),
  createdTo: instant("Only requests created before this time.").optional(),
  externalId: text()
    .min(1)
    .max(200)
    .optional()
    .meta({ description: "Only requests you gave this `externalId`." }),
  sort: z.enum(["newest", "oldest", "title", "changed"]).optional().meta({
    description:
      "`newest` created first (the default), `oldest` first, by `title` (A to Z), or most recently `changed` first.",
  }),
});

export const RequestIdParams = z.object({ requestId: id("The signature request's id.") });
export const AuditExportQuery = z.object({
  format: z.enum(["csv", "pdf"]).meta({
    description:
      "`csv`: one row per entry (RFC 4180, UTF-8); `pdf`: a report to read or print, with each entry's hash and whether the chain holds.",
  }),
});
export const RecipientIdParams = z.object({
  recipientId: id("The recipient's id, from the request's `recipients`."),
});

export const EmptyInput = z.strictObject({}).meta({ id: "EmptyInput" });

export const LegalHoldInput = z
  .strictObject({
    reason: text()
      .min(1)
      .max(500)
      .meta({ description: "Why the request is held (a dispute, an audit), for the audit trail." }),
  })
  .meta({ id: "LegalHoldInput" });

export const CancelInput = z
  .strictObject({
    reason: text().optional().meta({ description: "Why, for the audit trail and the recipients." }),
  })
  .meta({ id: "CancelInput" });

export const RecipientChanges = z
  .strictObject({
    recipients: z
      .array(
        z.strictObject({
          id: id("The recipient's id, from the request's `recipients`."),
          name: text().optional().meta({ description: "The new name; unchanged when absent." }),
          email: text().optional().meta({ description: "The new e-mail address; unchanged when absent." }),
          locale: SignerLocale.nullable().optional().meta({
            description:
              "The new language of their e-mails and signing page; null clears it; unchanged when absent. Their links keep working.",
          }),
        }),
      )
      .meta({ description: "The recipients to change, each by id." }),
  })
  .meta({ id: "RecipientChanges" });

export const ReminderInput = z
  .strictObject({ message: text().optional().meta({ description: "An extra note for this reminder." }) })
  .meta({ id: "ReminderInput" });

export const Reminder = z
  .strictObject({ recipientId: z.uuid(), remindedAt: timestamp })
  .meta({ id: "Reminder" });

export const InPersonSigningInput = z
  .strictObject({
    recipientId: id("The recipient who signs in person, whose turn it is."),
    returnUrl: text().optional().meta({
      format: "uri",
      description:
        "Where the signing page goes when the signer is done, such as the request's page in your app: an absolute https URL (http only for localhost).",
    }),
  })
  .meta({ id: "InPersonSigningInput" });

export const EmbeddedSigningInput = z
  .strictObject({
    requestId: id("The signature request's id."),
    recipientId: id(
      "The signer's recipient id, whose turn it is: a signer embedded in your app (`clientUserId`), or one you host in person (`host`).",
    ),
    returnUrl: text().optional().meta({
      format: "uri",
      description:
        "Where the signing page sends the signer when done: an absolute https URL (http only for localhost).",
    }),
    frameOrigin: text()
      .optional()
      .meta({
        format: "uri",
        examples: ["https://app.example.com"],
        description:
          'The origin of your page that shows the signing page in an iframe: one of the workspace\'s embedding origins (`GET /embedding-settings`; 422 otherwise). The URL then opens only in a frame of that origin, needs no cookie (so it works where third-party cookies are blocked), and posts its events to that origin: `ready`, `field_changed`, `completed`, `declined`, `reassigned`, `session_expired`, `error`, each `{ source: "countersign", type, … }`. Left out, the URL opens as a page of its own, in no frame.',
      }),
  })
  .meta({ id: "EmbeddedSigningInput" });

export const EmbeddingSettings = z
  .strictObject({
    frameOrigins: z
      .array(text())
      .max(MAX_FRAME_ORIGINS)
      .meta({
        examples: [["https://app.example.com", "http://localhost:5173"]],
        description: `The origins whose pages may show this workspace's signing page in an iframe: each an https origin alone (scheme, host and port; http only for localhost), at most ${MAX_FRAME_ORIGINS}, each once. Empty by default: no site may frame it.`,
      }),
  })
  .meta({ id: "EmbeddingSettings" });

export const EmbeddedSigningUrl = z
  .strictObject({
    url: z
      .url()
      .nullable()
      .meta({ description: "Opens once; null only for an MCP dry run, which makes no URL." }),
    expiresAt: timestamp.meta({ description: "The URL must be opened before this." }),
  })
  .meta({ id: "EmbeddedSigningUrl" });

export const AuditEntry = z
  .strictObject({
    sequence: z.int().min(1),
    at: timestamp,
    action: z.string(),
    actor: z.strictObject({
      type: z.string(),
      id: z.string().nullable(),
      name: z.string().nullable().meta({
        description:
          "Who acted, as they were named then: a recipient's name, a console user's e-mail, an API key's name.",
      }),
      email: z
        .string()
        .nullable()
        .meta({ description: "The e-mail of a recipient or console user who acted." }),
    }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    previousHash: z.string().nullable(),
    hash: z.string(),
  })
  .meta({ id: "AuditEntry" });

export const AuditTrail = z
  .strictObject({
    items: z.array(AuditEntry),
    verified: z
      .boolean()
      .meta({ description: "Every entry's SHA-256 matches its content and the entry before." }),
  })
  .meta({ id: "AuditTrail" });
