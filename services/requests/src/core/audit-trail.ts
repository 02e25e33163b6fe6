/**
 * The audit trail: an append-only chain of entries per request, each holding the hash of the one
 * before, so that changing or removing an entry afterwards is detectable. Appends happen under the
 * request's row lock, which keeps the sequence gap-free.
 */
import { createHash } from "node:crypto";
import type { Actor } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Queryable } from "@countersign/kit";
import canonicalize from "canonicalize";

export interface AuditActor {
  type: "api_key" | "user" | "recipient" | "system";
  id: string;
  ip: string;
  userAgent: string;
  /** Who acted, as they were named then: an API key's name, a console user's or recipient's name. */
  name?: string;
  /** The e-mail of a console user or recipient. */
  email?: string;
}

/** The actor as it is hashed and kept: a name and e-mail only where there is one (older entries had neither). */
function named(actor: AuditActor): AuditActor {
  const { name, email, ...rest } = actor;
  return { ...rest, ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

export const SYSTEM: AuditActor = { type: "system", id: "", ip: "", userAgent: "" };

/** The caller of an RPC as the audit trail names it: its API key, the console user, or the service itself. */
export function actorOf(actor: Actor | undefined): AuditActor {
  const by = {
    ip: actor?.ip ?? "",
    userAgent: actor?.userAgent ?? "",
    name: actor?.name,
    email: actor?.email,
  };
  if (actor?.apiKeyId) return named({ ...by, type: "api_key", id: actor.apiKeyId });
  if (actor?.userId) return named({ ...by, type: "user", id: actor.userId });
  return { ...SYSTEM, ip: by.ip, userAgent: by.userAgent };
}

export interface AuditEntry {
  sequence: number;
  at: Date;
  action: string;
  actor: AuditActor;
  details: Record<string, unknown>;
  previousHash: string;
  hash: string;
}

interface AuditRow {
  sequence: number;
  at: Date;
  action: string;
  actor_type: AuditActor["type"];
  actor_id: string;
  ip: string;
  user_agent: string;
  actor_name: string;
  actor_email: string;
  details: Record<string, unknown>;
  previous_hash: string;
  hash: string;
}

/** What an entry's hash is taken over, as anyone checking the chain rebuilds it. */
export function hashedContent(entry: Omit<AuditEntry, "hash">): string {
  // Canonical JSON (RFC 8785): the database's jsonb does not keep the key order the hash was made
  // with. Only `undefined` itself has no JSON; an object always has.
  return canonicalize({
    sequence: entry.sequence,
    at: entry.at.toISOString(),
    action: entry.action,
    actor: entry.actor,
    details: entry.details,
    previousHash: entry.previousHash,
  }) as string;
}

export function entryHash(entry: Omit<AuditEntry, "hash">): string {
  return createHash("sha256").update(hashedContent(entry)).digest("hex");
}

/** Where a chain ends: its last sequence number and hash. */
export interface ChainEnd {
  sequence: number;
  hash: string;
}

/** The end of a chain that has no entry yet: a new request's first entry needs no look-up. */
export const EMPTY_CHAIN: ChainEnd = { sequence: 0, hash: "" };

/** An entry to append: what happened and its particulars. */
export interface AuditRecord {
  action: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one entry to a request's chain; call it inside the transaction that holds the request's
 * lock. `end` saves reading the chain's end when the caller knows it.
 */
export function appendAudit(
  tx: Queryable,
  requestId: string,
  action: string,
  actor: AuditActor,
  details: Record<string, unknown> = {},
  end?: ChainEnd,
): Promise<ChainEnd> {
  return appendAuditEntries(tx, requestId, actor, [{ action, details }], end);
}

/** Appends entries by one actor, in order and with one statement, as `appendAudit` appends one. */
export async function appendAuditEntries(
  tx: Queryable,
  requestId: string,
  actor: AuditActor,
  records: readonly AuditRecord[],
  end?: ChainEnd,
): Promise<ChainEnd> {
  let last =
    end ??
    (
      await tx.query<ChainEnd>(
        "SELECT sequence, hash FROM audit_entries WHERE request_id = $1 ORDER BY sequence DESC LIMIT 1",
        [requestId],
      )
    ).rows[0] ??
    EMPTY_CHAIN;
  const entries = records.map(({ action, details = {} }) => {
    const entry = {
      sequence: last.sequence + 1,
      // Milliseconds, as JavaScript keeps them, so that the stored time hashes the same when read back.
      at: new Date(),
      action,
      actor: named(actor),
      // As the database will give it back: dates become strings, undefined properties disappear.
      details: JSON.parse(JSON.stringify(details)) as Record<string, unknown>,
      previousHash: last.hash,
    };
    last = { sequence: entry.sequence, hash: entryHash(entry) };
    return { ...entry, hash: last.hash };
  });
  await tx.query(
    `INSERT INTO audit_entries (request_id, sequence, at, action, actor_type, actor_id, ip, user_agent,
                                actor_name, actor_email, details, previous_hash, hash)
     SELECT $1, e.sequence, e.at, e.action, $2, $3, $4, $5, $12, $13, e.details, e.previous_hash, e.hash
       FROM unnest($6::int[], $7::timestamptz[], $8::text[], $9::jsonb[], $10::text[], $11::text[])
            AS e(sequence, at, action, details, previous_hash, hash)`,
    [
      requestId,
      actor.type,
      actor.id,
      actor.ip,
      actor.userAgent,
      entries.map((e) => e.sequence),
      entries.map((e) => e.at),
      entries.map((e) => e.action),
      entries.map((e) => JSON.stringify(e.details)),
      entries.map((e) => e.previousHash),
      entries.map((e) => e.hash),
      actor.name ?? "",
      actor.email ?? "",
    ],
  );
  return last;
}

export async function readAudit(db: Queryable, requestId: string): Promise<AuditEntry[]> {
  const { rows } = await db.query<AuditRow>(
    `SELECT sequence, at, action, actor_type, actor_id, ip, user_agent, actor_name, actor_email, details,
            previous_hash, hash
       FROM audit_entries WHERE request_id = $1 ORDER BY sequence`,
    [requestId],
  );
  return rows.map((row) => ({
    sequence: row.sequence,
    at: row.at,
    action: row.action,
    actor: named({
      type: row.actor_type,
      id: row.actor_id,
      ip: row.ip,
      userAgent: row.user_agent,
      name: row.actor_name,
      email: row.actor_email,
    }),
    details: row.details,
    previousHash: row.previous_hash,
    hash: row.hash,
  }));
}

/** True when every entry follows the one before and hashes to what it says. */
export function verifyChain(entries: AuditEntry[]): boolean {
  let previous = "";
  return entries.every((entry, i) => {
    const ok = entry.sequence === i + 1 && entry.previousHash === previous && entryHash(entry) === entry.hash;
    previous = entry.hash;
    return ok;
  });
}
