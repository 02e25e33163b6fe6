/**
 * A request's audit trail as CSV, one row per entry, written as every CSV file is (csv-file.ts):
 * names and user agents come from strangers, so no cell runs as a formula.
 */
import type { AuditEntry } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { csvFile } from "./csv-file.js";
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
  return csvFile([COLUMNS, ...rows]);
}
