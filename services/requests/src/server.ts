/** The requests service as its own process (distributed mode). */
import { pathToFileURL } from "node:url";
import { runMain, serviceMain } from "@countersign/kit";
import { z } from "zod";
import { buildRequests } from "./service.js";

export { buildRequests, type RequestsDeps } from "./service.js";

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  runMain(() =>
    serviceMain({ name: "requests", config: z.object({}), build: (adapters) => buildRequests(adapters) }),
  );
}
