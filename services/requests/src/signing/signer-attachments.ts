/**
 * Files signers give for their attachment fields while signing: each stored as a document of the
 * request (an image as a one-page PDF showing it, so every document of a request reads alike), the
 * latest per field kept as the value the signer may submit, the one it replaces deleted.
 */
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  type DocumentsService,
  Kind,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { AttachSignerFileRequest } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, inDataMode, type Logger, problemError, validationError } from "@countersign/kit";
import { imageSize } from "image-size";
import { appendAudit } from "../core/audit-trail.js";
import type { RequestTransactions } from "../core/request-transactions.js";
import { assertAllowed, assertRecipientAllowed } from "../core/state-machine.js";
import { recipientStore } from "../core/store/recipient-store.js";
import { requestStore } from "../core/store/request-store.js";
import type { SignerAttachmentRecord } from "../core/store/rows.js";
import { uploadStore } from "../core/store/upload-store.js";
import { holderOf } from "../core/stored-documents.js";
import { DrawingFailed, type DrawingProcess } from "../pdf/drawing-process.js";
import { assertAuthenticated } from "./authentication-status.js";
import { type SigningSessions, signerActor } from "./signing-sessions.js";

export const ATTACHMENT_LIMITS = {
  bytes: 10 * 1024 * 1024,
  filenameLength: 255,
  /** An image is decoded whole to be put in a PDF: larger ones than a phone's camera takes are refused. */
  pixels: 50_000_000,
} as const;

type Given = "application/pdf" | "image/png" | "image/jpeg";

/** What the bytes are, by their content rather than by what the browser declared. */
function kindOf(content: Uint8Array): Given | undefined {
  const head = Buffer.from(content.subarray(0, 1024)).toString("latin1");
  if (head.includes("%PDF-")) return "application/pdf";
  try {
    const { type } = imageSize(content);
    if (type === "png") return "image/png";
    if (type === "jpg") return "image/jpeg";
  } catch {
    return undefined;
  }
  return undefined;
}

/** The name a stored document takes: an image's, made into a PDF, ends in .pdf. */
function storedName(filename: string, type: Given): string {
  return type === "application/pdf" ? filename : `${filename.replace(/\.(png|jpe?g)$/i, "")}.pdf`;
}

export class SignerAttachments {
  constructor(
    private readonly deps: {
      db: Database;
      documents: Client<typeof DocumentsService>;
      /** The API's drawing process, where images are made into pages. */
      drawing: DrawingProcess;
      sessions: SigningSessions;
      transactions: RequestTransactions;
      logger: Logger;
    },
  ) {}

  /** Stores the file; an image waits for its workspace's turn to be made a page, given up if `signal` aborts. */
  async attach(given: AttachSignerFileRequest, signal?: AbortSignal): Promise<SignerAttachmentRecord> {
    const filename = given.filename.trim() || "attachment";
    if (filename.length > ATTACHMENT_LIMITS.filenameLength) {
      throw validationError([
        { path: "filename", message: `must be at most ${ATTACHMENT_LIMITS.filenameLength} characters` },
      ]);
    }
    if (given.content.length === 0)
      throw validationError([{ path: "content", message: "the file is empty" }]);
    if (given.content.length > ATTACHMENT_LIMITS.bytes) {
      throw problemError(
        "payload_too_large",
        `attach a file of at most ${ATTACHMENT_LIMITS.bytes / 1024 / 1024} MiB`,
        Code.InvalidArgument,
      );
    }
    const type = kindOf(given.content);
    if (!type) {
      throw problemError(
        "unsupported_media_type",
        "attach a PDF, or a PNG or JPEG image",
        Code.InvalidArgument,
      );
    }
    const session = await this.deps.sessions.resolve(given.sessionToken);
    const { db } = this.deps;
    const request = await requestStore.getRequest(db, session.workspaceId, session.requestId);
    const signer = (await recipientStore.recipientsOf(db, [session.requestId])).find(
      (r) => r.id === session.recipientId,
    );
    if (!request || !signer) throw new ConnectError("signing session not found", Code.NotFound);
    const mayAttach = () => {
      assertAuthenticated(signer, session);
      assertAllowed("sign", request.status);
      assertRecipientAllowed("sign", signer.status);
    };
    mayAttach();
    const field = request.fields.find((f) => f.id === given.fieldId && f.recipientId === signer.id);
    if (field?.type !== "attachment") {
      throw validationError([{ path: "fieldId", message: "is not one of your attachment fields" }]);
    }

    const pdf =
      type === "application/pdf"
        ? given.content
        : await this.imagePage(session.workspaceId, given.content, type, signal);
    // The signer's file is of the request's mode, though the signer's call has none.
    const { document } = await inDataMode(request?.test ? "test" : "live", () =>
      this.deps.documents.uploadDocument(
        (async function* () {
          yield {
            part: {
              case: "header" as const,
              value: {
                workspaceId: session.workspaceId,
                filename: storedName(filename, type),
                contentType: "application/pdf",
                kind: Kind.SIGNER_ATTACHMENT,
                sizeBytes: BigInt(pdf.length),
              },
            },
          };
          for (let at = 0; at < pdf.length; at += 1024 * 1024) {
            yield { part: { case: "chunk" as const, value: pdf.subarray(at, at + 1024 * 1024) } };
          }
        })(),
      ),
    );
    if (!document) throw new Error("the documents service stored the attachment but did not describe it");
    const holder = holderOf(request.id);
    const ref = { workspaceId: session.workspaceId, documentId: document.id, holder };
    await this.deps.documents.claimDocument(ref);
    const record: SignerAttachmentRecord = {
      fieldId: field.id,
      recipientId: signer.id,
      documentId: document.id,
      filename,
      contentType: type,
      sizeBytes: Number(document.sizeBytes),
      sha256: document.sha256,
      attachedAt: new Date().toISOString(),
    };
    let replaced: string | undefined;
    try {
      await this.deps.transactions.mutate(session.workspaceId, session.requestId, async (tx, locked) => {
        const now = locked.recipients.find((r) => r.id === signer.id);
        if (!now) throw new ConnectError("signing session not found", Code.NotFound);
        assertAllowed("sign", locked.request.status);
        assertRecipientAllowed("sign", now.status);
        replaced = await uploadStore.saveUpload(tx, request.id, record);
        await appendAudit(tx, request.id, "attached", signerActor(now, given.actor), {
          fieldId: field.id,
          documentId: document.id,
          filename,
          sha256: document.sha256,
        });
      });
    } catch (err) {
      await this.discard(ref);
      throw err;
    }
    if (replaced) await this.discard({ ...ref, documentId: replaced });
    return record;
  }

  /**
   * An image as a one-page PDF, made in the API's drawing process: a PNG is decoded whole there, within
   * that process's time and memory, never on the event loop that serves every other call.
   */
  private async imagePage(
    workspaceId: string,
    content: Uint8Array,
    type: "image/png" | "image/jpeg",
    signal?: AbortSignal,
  ): Promise<Uint8Array> {
    const { width = 0, height = 0 } = imageSize(content);
    if (width * height > ATTACHMENT_LIMITS.pixels) {
      throw validationError([
        {
          path: "content",
          message: `the image is ${width} × ${height} pixels: attach one of at most ${ATTACHMENT_LIMITS.pixels / 1_000_000} megapixels`,
        },
      ]);
    }
    try {
      return await this.deps.drawing.imagePage(workspaceId, content, type, signal);
    } catch (err) {
      if (!(err instanceof DrawingFailed)) throw err;
      throw validationError([{ path: "content", message: `the image could not be read: ${err.message}` }]);
    }
  }

  /** Releases and deletes a file no longer any field's; a failure leaves it to the claim sweep. */
  private async discard(ref: { workspaceId: string; documentId: string; holder: string }): Promise<void> {
    try {
      await this.deps.documents.releaseDocument(ref);
      await this.deps.documents.deleteDocument({ workspaceId: ref.workspaceId, documentId: ref.documentId });
    } catch (err) {
      this.deps.logger.warn(
        { err, documentId: ref.documentId },
        "a replaced signer attachment was not deleted",
      );
    }
  }
}
