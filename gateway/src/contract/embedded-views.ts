/** The public shapes of embedded sending and template editing: what a view is made with, and its URL. */
import { z } from "zod";
import { id, text, timestamp } from "./values.js";

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

export const SenderViewInput = z
  .strictObject({
    requestId: id(
      "A draft request to review and send; left out, the view prepares a new request (from a template or from documents) and sends it.",
    ).optional(),
    returnUrl,
    frameOrigin,
  })
  .meta({ id: "SenderViewInput" });

export const EditViewInput = z.strictObject({ returnUrl, frameOrigin }).meta({ id: "EditViewInput" });

export const EmbeddedViewUrl = z
  .strictObject({
    url: z.url().nullable().meta({
      description:
        "Null only for an MCP dry run, which makes no URL. Opens once, before `expiresAt`. The page it opens calls the API for an hour with a credential of its own, which may make only its flow's calls, on the draft or template it names.",
    }),
    expiresAt: timestamp.meta({ description: "The URL must be opened before this (5 minutes)." }),
  })
  .meta({ id: "EmbeddedViewUrl" });
