/** A template of two roles in routing order (Client, then Company), each with a signature field. */
import { call } from "./http.js";
import { makePdf } from "./pdfs.js";

export async function createTwoRoleTemplate(api: string, key: string, name = "NDA"): Promise<string> {
  const upload = await call(api, "/documents/upload?filename=nda.pdf", {
    key,
    method: "POST",
    body: await makePdf(1),
    headers: { "content-type": "application/pdf" },
  });
  if (upload.status !== 201) throw new Error(`upload answered ${upload.status}: ${upload.text}`);
  const field = { type: "signature", page: 1, x: 50, y: 600, width: 150, height: 40 };
  const template = await call(api, "/templates", {
    key,
    method: "POST",
    json: {
      name,
      documentId: (upload.body as { id: string }).id,
      roles: [{ name: "Client" }, { name: "Company", order: 2 }],
      fields: [
        { ...field, role: "Client" },
        { ...field, role: "Company", y: 500 },
      ],
    },
  });
  if (template.status !== 201) throw new Error(`template answered ${template.status}: ${template.text}`);
  return (template.body as { id: string }).id;
}

/**
 * A request from that template to Ada (Client) and Bob (Company), sent at once; `headers` go with
 * the call (a `traceparent`, say). Answers the API's reply.
 */
export function sendFromTwoRoleTemplate(
  api: string,
  key: string,
  templateId: string,
  headers: Record<string, string> = {},
) {
  return call(api, "/signature-requests", {
    key,
    method: "POST",
    headers,
    json: {
      title: "Traced NDA",
      templateId,
      recipients: [
        { name: "Ada Lovelace", email: "ada@example.com", role: "Client" },
        { name: "Bob Babbage", email: "bob@example.com", role: "Company" },
      ],
      send: true,
    },
  });
}
