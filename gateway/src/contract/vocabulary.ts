/**
 * The words the public shapes share — a field's type, a request's and a recipient's status, a
 * recipient's kind — each one named schema that every shape references, so the OpenAPI document
 * (and the web apps' types generated from it) declares each list once.
 */
import {
  FIELD_TYPES,
  RECIPIENT_KINDS,
  RECIPIENT_STATUSES,
  REQUEST_STATUSES,
  SIGNER_LOCALES,
} from "@countersign/domain";
import { z } from "zod";

export const FieldType = z.enum(FIELD_TYPES).meta({
  id: "FieldType",
  description:
    "What the signer fills in: `date_signed`, `name` and `email` are filled by the service when they sign.",
});

export const RequestStatus = z.enum(REQUEST_STATUSES).meta({
  id: "RequestStatus",
  description:
    "draft → sent → in_progress → completed; cancelled, declined and expired end a request early. A request an agent's key proposed is awaiting_approval between draft and sent, until a person approves it (sent) or rejects it (cancelled).",
});

export const RecipientStatus = z.enum(RECIPIENT_STATUSES).meta({
  id: "RecipientStatus",
  description:
    "pending → sent → viewed → signed (an approver: approved), or declined. A viewer's part is done once viewed.",
});

export const RecipientKind = z.enum(RECIPIENT_KINDS).meta({
  id: "RecipientKind",
  description:
    "A `signer` fills their fields; an `approver` approves or declines and signs nothing; a `viewer` must open the documents before the routing moves on, and signs nothing; a `cc` recipient receives a copy when the request is completed.",
});

export const SignerLocale = z.enum(SIGNER_LOCALES).meta({
  id: "SignerLocale",
  description:
    "The language of a recipient's e-mails and signing page: English, German, French, Spanish, Portuguese (Brazil), Italian, Dutch, Polish, Japanese or Arabic (right to left).",
});
