/** A signer of an embedded request, in the session their signing URL opened: what the suites sign with. */
import { call } from "./http.js";
import { makePdf } from "./pdfs.js";
import { SignerBrowser } from "./signer-browser.js";

/** A sent request to one embedded signer with a signature and an initials field, opened in their browser. */
export async function embeddedSigner(
  gateway: string,
  key: string,
): Promise<{
  request: { id: string };
  signer: SignerBrowser;
  fields: string[];
}> {
  const api = `${gateway}/api/v1`;
  const upload = await call(api, "/documents/upload?filename=nda.pdf", {
    key,
    method: "POST",
    body: await makePdf(1),
    headers: { "content-type": "application/pdf" },
  });
  const created = await call(api, "/signature-requests", {
    key,
    method: "POST",
    json: {
      title: "NDA",
      documentIds: [(upload.body as { id: string }).id],
      fields: [
        { type: "signature", role: "Client", page: 1, x: 60, y: 600, width: 180, height: 40 },
        { type: "initials", role: "Client", page: 1, x: 300, y: 600, width: 60, height: 30 },
      ],
      recipients: [{ name: "Ada", email: "ada@example.com", role: "Client", clientUserId: "ada" }],
      send: true,
    },
  });
  const request = created.body as { id: string; recipients: { id: string }[] };
  const url = await call(api, "/embedded-signing-url", {
    key,
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipients[0]?.id },
  });
  const signer = new SignerBrowser(gateway);
  await signer.open((url.body as { url: string }).url);
  const session = await signer.call("/sign/api/session");
  return { request, signer, fields: (session.body as { fields: { id: string }[] }).fields.map((f) => f.id) };
}
