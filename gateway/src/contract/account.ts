/** The key's own account, the ping and the probes. */
import { z } from "zod";
import { id, timestamp } from "./values.js";

export const Ping = z.strictObject({ status: z.literal("ok") }).meta({ id: "Ping" });

export const Account = z
  .strictObject({
    id: z.uuid().meta({ description: "The Account ID." }),
    name: z.string(),
    createdAt: timestamp,
  })
  .meta({ id: "Account" });

export const AccountParams = z.object({ accountId: id() });
