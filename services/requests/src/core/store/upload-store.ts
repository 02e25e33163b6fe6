/** The signer_uploads table: the file a signer gave for each attachment field, the latest one kept. */
import type { Queryable } from "@countersign/kit";
import type { SignerAttachmentRecord } from "./rows.js";

export const uploadStore = {
  /**
   * Keeps a signer's file as the one for its field; the document it replaces, whose claim the
   * caller releases once this is committed.
   */
  async saveUpload(
    tx: Queryable,
    requestId: string,
    upload: SignerAttachmentRecord,
  ): Promise<string | undefined> {
    const { rows } = await tx.query<{ previous: string | null }>(
      `WITH previous AS (SELECT document_id FROM signer_uploads WHERE request_id = $1 AND field_id = $2 FOR UPDATE)
       INSERT INTO signer_uploads (request_id, field_id, recipient_id, document_id, filename, content_type, size_bytes, sha256, uploaded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (request_id, field_id) DO UPDATE SET recipient_id = $3, document_id = $4, filename = $5,
         content_type = $6, size_bytes = $7, sha256 = $8, uploaded_at = $9
       RETURNING (SELECT document_id FROM previous) AS previous`,
      [
        requestId,
        upload.fieldId,
        upload.recipientId,
        upload.documentId,
        upload.filename,
        upload.contentType,
        upload.sizeBytes,
        upload.sha256,
        upload.attachedAt,
      ],
    );
    const previous = rows[0]?.previous;
    return previous && previous !== upload.documentId ? previous : undefined;
  },

  /** The files a signer gave, the latest for each of their fields. */
  async uploadsOf(db: Queryable, requestId: string, recipientId: string): Promise<SignerAttachmentRecord[]> {
    const { rows } = await db.query<SignerAttachmentRecord>(
      `SELECT field_id AS "fieldId", recipient_id AS "recipientId", document_id AS "documentId", filename,
              content_type AS "contentType", size_bytes::float8 AS "sizeBytes", sha256,
              to_json(uploaded_at) #>> '{}' AS "attachedAt"
         FROM signer_uploads WHERE request_id = $1 AND recipient_id = $2`,
      [requestId, recipientId],
    );
    return rows;
  },
};
