/**
 * The signing page's JSON API (docs/design.md §9.1): what a signer's session sees, and what they send to
 * sign or decline. Served under /sign/api to the holder of a signing-session cookie, no API key.
 */
import { z } from "zod";
import { base64Text } from "./base64.js";
import { Branding } from "./branding.js";
import { prefilledValue } from "./signature-requests.js";
import { fieldRulesShape, TextCover } from "./templates.js";
import { id, text } from "./values.js";
import { FieldType, RecipientKind, RecipientStatus, RequestStatus, SignerLocale } from "./vocabulary.js";

const PlacedField = z.object({
  id: z.string(),
  type: FieldType,
  documentId: z.string(),
  page: z.number(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  required: z.boolean(),
  label: z.string(),
  prefilled: prefilledValue,
  cover: TextCover.optional(),
  ...fieldRulesShape,
});

const FilledValue = z.union([
  z.object({ kind: z.literal("typed"), text: z.string() }),
  z.object({ kind: z.literal("drawn"), png: z.string().meta({ description: "The PNG image in base64." }) }),
  z.string(),
  z.boolean(),
]);

export const SignerAuthentication = z
  .object({
    methods: z.array(z.enum(["access_code", "email_code"])).meta({
      description: "What the sender asked the signer to give before the document: empty when nothing.",
    }),
    verified: z.array(z.enum(["access_code", "email_code"])).meta({
      description:
        "What this session has given. Until it is every method, no document, field or value is shown.",
    }),
    lockedUntil: z.string().optional().meta({
      description: "Set while the signer is locked out after wrong codes: when they may try again.",
    }),
    attemptsLeft: z.number().meta({ description: "Wrong codes left before the lock-out." }),
    emailHint: z.string().optional().meta({ description: "Where the e-mailed code goes, partly hidden." }),
    codeSentAt: z.string().optional().meta({ description: "When this session's last code was e-mailed." }),
  })
  .meta({ id: "SignerAuthentication" });

export const VerifySigner = z
  .strictObject({
    accessCode: text().max(100).optional().meta({ description: "The code the sender gave the signer." }),
    emailCode: text().max(20).optional().meta({ description: "The code e-mailed to the signer." }),
  })
  .meta({ id: "VerifySigner" });

export const SigningSession = z
  .object({
    authentication: SignerAuthentication,
    request: z.object({
      id: z.string(),
      title: z.string(),
      message: z.string(),
      sender: z
        .string()
        .meta({ description: "Who sent the request: a person's e-mail, or the workspace's name." }),
    }),
    recipient: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      status: RecipientStatus,
      kind: RecipientKind.meta({
        description:
          "A `viewer` is asked to open the documents, and signs nothing; their view is their part.",
      }),
      locale: SignerLocale.nullable().meta({
        description: "The language the sender chose for the signer; null: the page follows the browser's.",
      }),
      host: z.object({ name: z.string(), email: z.string() }).nullable().meta({
        description:
          "Who hosts this signer's signing in person, on whose device the page is: the page asks them to hand it to the signer.",
      }),
    }),
    requestStatus: RequestStatus,
    documents: z.array(
      z.object({
        id: z.string(),
        filename: z.string(),
        pageCount: z.number(),
        pages: z.array(z.object({ width: z.number(), height: z.number() })).meta({
          description: "Each page's visible size in PDF points, as a viewer shows it.",
        }),
      }),
    ),
    fields: z
      .array(PlacedField)
      .meta({ description: "This signer's fields only; positions in points from the page's top-left." }),
    filled: z
      .array(
        PlacedField.extend({
          value: FilledValue,
          filledBy: z.string().meta({ description: "The name of the signer who filled it in." }),
        }),
      )
      .meta({
        description:
          "What the signers before this one filled in, to show in place, read-only: a typed or drawn signature, text, or a checkbox's state.",
      }),
    covers: z.array(TextCover.extend({ documentId: z.string(), page: z.int().min(1) })).meta({
      description:
        "Every text tag the request's fields were placed on, whoever fills them: shown white, as the completed PDF shows them.",
    }),
    branding: Branding,
    test: z.boolean().meta({
      description: "A test key's request: signing it binds no one, and the page says so.",
    }),
    identityLocked: z.boolean().meta({
      description:
        "The sender fixed who the signer is: their name and e-mail fields show their own, read-only.",
    }),
    everyoneSigned: z.boolean().meta({
      description: "Every signer has signed: the request is being sealed, or is complete.",
    }),
    canReassign: z.boolean().meta({
      description:
        "The sender lets this signer hand the request to someone else (not for a signer in the sender's app).",
    }),
    sealingDelayed: z.boolean().meta({
      description: "Sealing failed at its last attempt and waits for the sender; the document comes later.",
    }),
    returnUrl: z.string().optional().meta({ description: "Where an embedded signer goes when done." }),
    signedDocumentId: z.string().optional().meta({
      description: "The sealed PDF, once the request is completed; readable through /sign/api/documents.",
    }),
  })
  .meta({ id: "SigningSession" });

const SignatureValue = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("typed"), text: text().max(100) }),
  z.strictObject({
    kind: z.literal("drawn"),
    png: base64Text().max(700_000).meta({ description: "A PNG image in base64, without a data: prefix." }),
  }),
]);

const AttachmentValue = z.strictObject({
  kind: z.literal("attachment"),
  id: id("The attachment's id, as POST /sign/api/attachments/{fieldId} answered it."),
});

/** How the page writes dates: the sealed PDF writes the date signed the same way. */
export const DateForm = z.strictObject({
  locale: SignerLocale.optional().meta({
    description: "The language the page is shown in; date_signed is written in its form. Absent: 2026-11-27.",
  }),
  timeZone: text().max(64).optional().meta({
    description: "The signer's IANA time zone (Europe/Berlin): date_signed is the day there. Absent: UTC.",
  }),
});

export const SubmitSignature = z
  .strictObject({
    consent: z.boolean().meta({ description: "The signer agrees to sign electronically; must be true." }),
    values: z
      .record(text().max(200), z.union([SignatureValue, AttachmentValue, text().max(1000), z.boolean()]))
      .meta({
        description:
          "By field id: a typed or drawn signature for signature and initials; a string for text, name, email and number, a dropdown's option, and a date as YYYY-MM-DD; a boolean for checkbox and radio (true for the chosen button); for an attachment, the id POST /sign/api/attachments/{fieldId} answered. date_signed is stamped by the service; a field hidden by its condition takes no value.",
      }),
    ...DateForm.shape,
  })
  .meta({ id: "SubmitSignature" });

export const DateQuery = DateForm.extend({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .meta({
      description: "A day (YYYY-MM-DD) the signer picked for a date field, to write instead of today.",
    }),
});

export const AttachmentParams = z.object({ fieldId: text().max(64) });

export const SignerAttachment = z
  .object({
    id: z.uuid().meta({ description: "The stored document: the attachment field's value to submit." }),
    fieldId: z.string(),
    filename: z.string().meta({ description: "The file's name as the signer's device gave it." }),
    contentType: z.enum(["application/pdf", "image/png", "image/jpeg"]).meta({
      description: "What the signer gave; an image is kept as a one-page PDF showing it.",
    }),
    sizeBytes: z.int().meta({ description: "The stored PDF's length." }),
    sha256: z
      .string()
      .meta({ description: "The stored PDF's SHA-256, as the certificate of completion lists it." }),
  })
  .meta({ id: "SignerAttachmentUpload" });

export const DateSigned = z
  .object({
    text: z
      .string()
      .meta({ description: "Today (or the day asked) as a field of this form will read when sealed." }),
  })
  .meta({ id: "DateSigned" });

export const Signed = z
  .object({
    recipientStatus: z.enum(["signed", "approved"]).meta({ description: "`approved` for an approver." }),
    requestStatus: RequestStatus,
    everyoneSigned: z.boolean().meta({
      description: "This was the last signature: the document is being sealed (see GET /sign/api/session).",
    }),
    redirectUrl: z
      .string()
      .optional()
      .meta({ description: "returnUrl?event=signing_complete, for embedded signing." }),
  })
  .meta({ id: "Signed" });

export const DeclineToSign = z.strictObject({ reason: text().max(1000) }).meta({ id: "DeclineToSign" });

export const ReassignSigner = z
  .strictObject({
    name: text().max(200).meta({ description: "Who signs instead." }),
    email: text().max(320).meta({ description: "Where their invitation goes." }),
    reason: text().max(1000).meta({ description: "Why, for the sender and the audit trail." }),
  })
  .meta({ id: "ReassignSigner" });

export const Reassigned = z
  .object({ name: z.string(), email: z.string() })
  .meta({ id: "Reassigned", description: "Who has the request now; this session has ended." });

export const Declined = z
  .object({
    recipientStatus: z.literal("declined"),
    redirectUrl: z
      .string()
      .optional()
      .meta({ description: "returnUrl?event=decline, for embedded signing." }),
  })
  .meta({ id: "Declined" });

export const SigningDocumentParams = z.object({ documentId: id() });

export const LogoParams = z.object({
  workspaceId: z.uuid().transform((value) => value.toLowerCase()),
  sha256: text().regex(/^[0-9a-f]{64}$/, "must be a hex SHA-256"),
});

export const SigningLinkParams = z.object({
  token: text().meta({
    description: "The secret part of the link, from the e-mail or the embedded signing URL.",
  }),
});
