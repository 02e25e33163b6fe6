/** The field_values table: what each signer put into their fields, written once when they sign. */
import type { Queryable } from "@countersign/kit";
import type { StoredValue } from "./field-values.js";

export const fieldValueStore = {
  async save(
    tx: Queryable,
    requestId: string,
    recipientId: string,
    values: Map<string, StoredValue>,
  ): Promise<void> {
    if (values.size === 0) return;
    await tx.query(
      `INSERT INTO field_values (request_id, field_id, recipient_id, value)
       SELECT $1, f.id, $2, f.value FROM unnest($3::text[], $4::jsonb[]) AS f(id, value)`,
      [requestId, recipientId, [...values.keys()], [...values.values()].map((v) => JSON.stringify(v))],
    );
  },

  /** Every value the signers of a request put into their fields, by field id. */
  async read(db: Queryable, requestId: string): Promise<Map<string, StoredValue>> {
    const { rows } = await db.query<{ field_id: string; value: StoredValue }>(
      "SELECT field_id, value FROM field_values WHERE request_id = $1",
      [requestId],
    );
    return new Map(rows.map((r) => [r.field_id, r.value]));
  },
};
