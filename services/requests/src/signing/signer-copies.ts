/**
 * A signer's copy before the request completes: once they have signed, the documents as they stand
 * — every value signed so far drawn on its field, as the sealed PDF will draw it — without the
 * certificate or the seal, which come with completion. Drawn when asked, in the API's drawing
 * process in the workspace's turn, from what is stored; nothing is kept.
 */
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { Database } from "@countersign/kit";
import { fieldValueStore } from "../core/field-value-store.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import { readOriginals } from "../core/stored-documents.js";
import type { DrawingProcess } from "../pdf/drawing-process.js";
import type { SigningSessions } from "./signing-sessions.js";

export interface SignerCopy {
  filename: string;
  bytes: Uint8Array;
}

export class SignerCopies {
  constructor(
    private readonly deps: {
      db: Database;
      documents: Client<typeof DocumentsService>;
      sessions: SigningSessions;
      drawing: DrawingProcess;
    },
  ) {}

  /** The copy of the session's signer; a caller that goes away (`signal`) while it waits gives its place up. */
  async draw(sessionToken: string, signal?: AbortSignal): Promise<SignerCopy> {
    const session = await this.deps.sessions.resolve(sessionToken);
    const { db } = this.deps;
    const request = await requestStore.getRequest(db, session.workspaceId, session.requestId);
    const recipients = await recipientStore.recipientsOf(db, [session.requestId]);
    const signer = recipients.find((r) => r.id === session.recipientId);
    if (!request || (signer?.status !== "signed" && signer?.status !== "approved")) {
      throw new ConnectError("sign first: your copy holds what you signed", Code.FailedPrecondition);
    }
    // Only what signers have signed: a field of someone still to sign stays as the original has it.
    const signed = new Set(recipients.filter((r) => r.status === "signed").map((r) => r.id));
    const bytes = await this.deps.drawing.drawSignerCopy(
      session.workspaceId,
      async () => ({
        originals: await readOriginals(this.deps.documents, session.workspaceId, request.document_ids),
        fields: request.fields.filter((f) => signed.has(f.recipientId)),
        values: await fieldValueStore.read(db, request.id),
      }),
      signal,
    );
    const title = request.title.replace(/[\\/]/g, "-").slice(0, 150) || "document";
    return { filename: `${title} (signed by ${signer.name.slice(0, 60)}).pdf`, bytes };
  }
}
