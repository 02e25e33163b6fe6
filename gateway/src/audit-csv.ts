/**
 * A request's audit trail as CSV (RFC 4180, UTF-8 with a byte order mark so spreadsheets read
 * names in any script), one row per entry. A cell that a spreadsheet would run as a formula (`=`,
 * `+`, `-`, `@` first) is written with a leading `'`: names and user agents come from strangers.
 */
import type { AuditEntry } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { stringify } from "csv-stringify/sync";
import { iso } from "./json-time.js";

const COLUMNS = [
  "sequence",
  "time",
  "action",
  "actor_type",
  "actor_id",
  "actor_name",
  "actor_email",
  "ip",
  "user_agent",
  "details",
  "previous_hash",
  "hash",
];

export function auditCsv(entries: AuditEntry[]): string {
  const rows = entries.map((entry) => [
    entry.sequence,
    iso(entry.time),
    entry.action,
    entry.actorType,
    entry.actorId,
    entry.actorName,
    entry.actorEmail,
    entry.ip,
    entry.userAgent,
    entry.details,
    entry.previousHash,
    entry.hash,
  ]);
  return stringify([COLUMNS, ...rows], { bom: true, escape_formulas: true, record_delimiter: "windows" });
}
