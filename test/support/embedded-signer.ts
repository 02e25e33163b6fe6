/** A signer of an embedded request, in the session their signing URL opened: what the suites sign with. */
import { call } from "./http.js";
import { makePdf } from "./pdfs.js";
import { SignerBrowser } from "./signer-browser.js";

/** A field of the request as its signer's session gives it. */
export interface SessionField {
  id: string;
  type: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface EmbeddedRequest {
  /** A PDF to sign; one page of text unless given. */
  pdf?: Uint8Array;
  /** The signer's fields, with their types' options (label, group, options …); a signature and an initials field unless given. */
  fields?: (Omit<SessionField, "id"> & Record<string, unknown>)[];
  /** The request's title ("NDA"), the sender's message (none) and the signer's name ("Ada"). */
  title?: string;
  message?: string;
  signerName?: string;
}

/** A sent request to one embedded signer (role Client), and the signing URL that opens their page. */
export async function embeddedSigningLink(
  gateway: string,
  key: string,
  { pdf, fields, title = "NDA", message, signerName = "Ada" }: EmbeddedRequest = {},
): Promise<{ request: { id: string }; url: string }> {
  const api = `${gateway}/api/v1`;
  const upload = await call(api, "/documents/upload?filename=nda.pdf", {
    key,
    method: "POST",
    body: pdf ?? (await makePdf(1)),
    headers: { "content-type": "application/pdf" },
  });
  const created = await call(api, "/signature-requests", {
    key,
    method: "POST",
    json: {
      title,
      ...(message ? { message } : {}),
      documentIds: [(upload.body as { id: string }).id],
      fields: (
        fields ?? [
          { type: "signature", page: 1, x: 60, y: 600, width: 180, height: 40 },
          { type: "initials", page: 1, x: 300, y: 600, width: 60, height: 30 },
        ]
      ).map((field) => ({ ...field, role: "Client" })),
      recipients: [{ name: signerName, email: "ada@example.com", role: "Client", clientUserId: "ada" }],
      send: true,
    },
  });
  const request = created.body as { id: string; recipients: { id: string }[] };
  const link = await call(api, "/embedded-signing-url", {
    key,
    method: "POST",
    json: { requestId: request.id, recipientId: request.recipients[0]?.id },
  });
  return { request, url: (link.body as { url: string }).url };
}

/** A sent request to one embedded signer (role Client), opened in their browser. */
export async function embeddedSigner(
  gateway: string,
  key: string,
  embedded: EmbeddedRequest = {},
): Promise<{
  request: { id: string };
  signer: SignerBrowser;
  /** The fields' ids, in the order they were given. */
  fields: string[];
  layout: SessionField[];
}> {
  const { request, url } = await embeddedSigningLink(gateway, key, embedded);
  const signer = new SignerBrowser(gateway);
  await signer.open(url);
  const layout = ((await signer.call("/sign/api/session")).body as { fields: SessionField[] }).fields;
  return { request, signer, fields: layout.map((f) => f.id), layout };
}
