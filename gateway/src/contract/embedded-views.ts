/** The public shapes of embedded sending and template editing: what a view is made with, and its URL. */
import { z } from "zod";
import { id, text, timestamp } from "./values.js";
import { FieldType } from "./vocabulary.js";

const returnUrl = text().optional().meta({
  format: "uri",
  description:
    "Where a view shown as a page of its own sends its user when the flow ends, with `?event=sent&requestId=…` or `?event=saved&templateId=…`: an absolute https URL (http only for localhost). In a frame, the view posts the event to your page instead.",
});

const frameOrigin = text()
  .optional()
  .meta({
    format: "uri",
    examples: ["https://app.example.com"],
    description:
      'The origin of your page that shows the view in an iframe: one of the workspace\'s embedding origins (`GET /embedding-settings`; 422 otherwise). The URL then opens only in a frame of that origin, needs no cookie, and posts its events there: `ready`, `sent`, `saved`, `session_expired`, each `{ source: "countersign", view, type, … }`. Left out, it opens as a page of its own.',
  });

const fieldTypes = z
  .array(FieldType)
  .min(1)
  .refine((types) => new Set(types).size === types.length, "names a field type twice")
  .optional()
  .meta({
    description:
      'The field types the view\'s editor offers to place, such as `["signature", "date_signed"]`; left out, every type. What the editor offers, not a rule of the template: fields already there stay.',
  });

export const SenderViewInput = z
  .strictObject({
    requestId: id(
      "A draft request to review and send; left out, the view prepares a new request (from a template or from documents) and sends it.",
    ).optional(),
    templateId: id(
      "A template the view sends from: it opens with the template's roles to fill, and the view may send requests from that template alone. Not with `requestId`.",
    ).optional(),
    fieldTypes,
    returnUrl,
    frameOrigin,
  })
  .refine((input) => !(input.requestId && input.templateId), {
    path: ["templateId"],
    message: "a view sends a draft (requestId) or from a template (templateId), not both",
  })
  .meta({ id: "SenderViewInput" });

export const EditViewInput = z
  .strictObject({ fieldTypes, returnUrl, frameOrigin })
  .meta({ id: "EditViewInput" });

export const EmbeddedViewUrl = z
  .strictObject({
    url: z.url().nullable().meta({
      description:
        "Null only for an MCP dry run, which makes no URL. Opens once, before `expiresAt`. The page it opens calls the API for an hour with a credential of its own, which may make only its flow's calls, on the draft or template it names.",
    }),
    expiresAt: timestamp.meta({ description: "The URL must be opened before this (5 minutes)." }),
  })
  .meta({ id: "EmbeddedViewUrl" });
