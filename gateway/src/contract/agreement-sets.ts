/** Agreement sets: requests grouped so that their joint outcome can be followed (docs/design.md §4). */
import { z } from "zod";
import { id, text, timestamp } from "./values.js";
import { RequestStatus } from "./vocabulary.js";

export const AgreementSetInput = z
  .strictObject({
    name: text().meta({ description: "Your name for the set, such as `Lease and guarantee`." }),
    requestIds: z.array(id()).meta({ description: "Requests of this workspace, each in no other set." }),
  })
  .meta({ id: "AgreementSetInput" });

export const AgreementSet = z
  .strictObject({
    id: z.uuid(),
    name: z.string(),
    status: z.enum(["in_progress", "completed", "incomplete"]).meta({
      description:
        "in_progress until every request has ended; then completed if all completed, else incomplete.",
    }),
    requestIds: z.array(z.uuid()),
    requests: z.array(z.strictObject({ id: z.uuid(), status: RequestStatus })),
    createdAt: timestamp,
  })
  .meta({ id: "AgreementSet" });

export const AgreementSetIdParams = z.object({ agreementSetId: id("The agreement set's id.") });
