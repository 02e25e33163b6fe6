/** Bulk sends: one template sent to a list, one request a row, worked off in the background. */
import { z } from "zod";
import { MergeFields, NewRecipient } from "./signature-requests.js";
import { id, instant, optionalTimestamp, page, text, timestamp, wholeNumber } from "./values.js";

export const BULK_SEND_ROWS = 1000;

export const BulkSendRowInput = z
  .strictObject({
    recipients: z.array(NewRecipient.omit({ accessCode: true })).meta({
      description: "The signers (one per template role) and any copy (cc) recipients of this row's request.",
    }),
    mergeFields: MergeFields.optional(),
  })
  .meta({ id: "BulkSendRowInput" });

export const BulkSendInput = z
  .strictObject({
    templateId: id("The template every request is made from."),
    title: text().meta({ description: "The title of every request." }),
    name: text().max(200).optional().meta({ description: "Your name for the batch; its title when absent." }),
    message: text().optional().meta({ description: "Your note to the recipients, quoted in every e-mail." }),
    rows: z
      .array(BulkSendRowInput)
      .max(BULK_SEND_ROWS)
      .optional()
      .meta({
        description: `The requests to send, 1 to ${BULK_SEND_ROWS}; a row's problems are reported with its line, its place in this list counting from 1. Give \`rows\` or \`csv\`.`,
      }),
    csv: text()
      .max(1_000_000)
      .optional()
      .meta({
        description: `A CSV file's text (RFC 4180, comma-separated, UTF-8; up to 1,000,000 characters, within the 1 MiB a JSON body may be): a header line, then one request a line, at most ${BULK_SEND_ROWS}. For each template role the columns \`<Role> name\` and \`<Role> email\`; every other column is the label of a text, number or date field, whose cell fills it (an empty cell leaves it). Problems are reported with the line they are on. Give \`rows\` or \`csv\`.`,
      }),
    expiresAt: instant("When each unfinished request expires; must be in the future.").optional(),
    reminderEveryDays: wholeNumber().optional().meta({
      description:
        "Each request's reminder schedule, in days (0 to 30); the workspace's default when absent.",
    }),
  })
  .meta({
    id: "BulkSendInput",
    description:
      "Every row is checked before any is sent: one unsound row answers 422 naming each problem's line, and nothing is sent.",
  });

export const BulkSend = z
  .strictObject({
    id: z.uuid(),
    templateId: z.uuid(),
    name: z.string(),
    title: z.string(),
    status: z.enum(["running", "completed", "cancelled"]).meta({
      description:
        "`running` while rows wait; `completed` once every row is sent or failed; `cancelled` once cancelled (rows not yet sent are not).",
    }),
    total: z.int().min(0),
    sent: z.int().min(0).meta({ description: "Rows whose request was made and sent." }),
    failed: z.int().min(0).meta({ description: "Rows whose request could not be made; their rows say why." }),
    pending: z.int().min(0).meta({ description: "Rows still to send." }),
    cancelled: z.int().min(0).meta({ description: "Rows a cancellation stopped." }),
    createdBy: z.string().meta({ description: "The console user's e-mail, or the API key's name." }),
    createdAt: timestamp,
    endedAt: optionalTimestamp,
  })
  .meta({ id: "BulkSend" });

export const BulkSendRow = z
  .strictObject({
    line: z.int().min(1).meta({
      description: "The row's line in the CSV file (the header is line 1), or its place in `rows`.",
    }),
    status: z.enum(["pending", "sent", "failed", "cancelled"]),
    signatureRequestId: z.uuid().nullable().meta({ description: "The request the row made, once sent." }),
    error: z.string().nullable().meta({ description: "Why the row failed; null unless it did." }),
    recipients: z.array(z.string()).meta({ description: "The row's people, `Name <email>` each." }),
  })
  .meta({ id: "BulkSendRow" });

export const BulkSendPage = page(BulkSend, "BulkSendPage");
export const BulkSendRowPage = page(BulkSendRow, "BulkSendRowPage");

export const BulkSendIdParams = z.object({ bulkSendId: id("The bulk send's id.") });

export const BulkSendRowQuery = z.object({
  status: BulkSendRow.shape.status
    .optional()
    .meta({ description: "Only rows in this state, such as `failed`." }),
});

export const CsvTemplateQuery = z.object({ templateId: id("The template the file is for.") });
