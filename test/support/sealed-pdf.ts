/** The sealed PDF of a request, fetched through the API once its completion has made one. */
import { call, eventually } from "./http.js";

export async function sealedPdfOf(api: string, key: string, requestId: string): Promise<Uint8Array> {
  const completed = await eventually(async () => {
    const got = await call(api, `/signature-requests/${requestId}`, { key });
    const body = got.body as { status: string; signedDocumentId: string | null };
    return body.status === "completed" ? body : undefined;
  }, 30_000);
  const sealed = await fetch(`${api}/documents/${completed.signedDocumentId}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return new Uint8Array(await sealed.arrayBuffer());
}
