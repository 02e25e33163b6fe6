/** A request sent on a one-page PDF through the public API, and the signing link its e-mail carries to one recipient. */
import type { Deployment } from "./deployments.js";
import { call, eventually } from "./http.js";
import { outboxMails } from "./outbox-mail.js";
import { makePdf } from "./pdfs.js";

/** Sends `request` (its title, fields and recipients; the document is made here); the link e-mailed to `to`. */
export async function sentSigningLink(
  deployment: Deployment,
  key: string,
  request: { title: string; fields: object[]; recipients: object[] },
  to: string,
): Promise<string> {
  const api = `${deployment.gateways[0]}/api/v1`;
  const upload = await call(api, "/documents/upload?filename=agreement.pdf", {
    key,
    method: "POST",
    body: await makePdf(1, "Service agreement"),
    headers: { "content-type": "application/pdf" },
  });
  await call(api, "/signature-requests", {
    key,
    method: "POST",
    json: { ...request, documentIds: [(upload.body as { id: string }).id], send: true },
  });
  return eventually(async () => (await outboxMails(deployment.dataDir)).find((m) => m.to === to)?.link);
}
