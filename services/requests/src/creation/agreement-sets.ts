/**
 * Agreement sets: requests of one workspace grouped under a name. A set's status is derived from
 * its requests each time it is read (docs/design.md §4), so it never disagrees with them.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { RequestStatus } from "@countersign/domain";
import {
  type Actor,
  type AgreementSet,
  AgreementSetSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  type Database,
  type FieldViolation,
  inCallMode,
  isUuid,
  notFound,
  type Queryable,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { actorOf, appendAudit } from "../core/audit-trail.js";
import { rolledBack } from "../core/dry-run.js";
import { isTerminal } from "../core/state-machine.js";

const LIMITS = { nameLength: 200, requests: 100 } as const;

/** in_progress until every request is finished; then completed if all completed, else incomplete. */
export function derivedStatus(statuses: RequestStatus[]): "in_progress" | "completed" | "incomplete" {
  if (statuses.some((s) => !isTerminal(s))) return "in_progress";
  return statuses.every((s) => s === "completed") ? "completed" : "incomplete";
}

export class AgreementSets {
  constructor(private readonly db: Database) {}

  async create(
    workspaceId: string,
    name: string,
    requestIds: string[],
    actor: Actor | undefined,
    validateOnly = false,
  ): Promise<AgreementSet> {
    const violations: FieldViolation[] = [];
    if (!name.trim()) violations.push({ path: "name", message: "is required" });
    else if (name.length > LIMITS.nameLength)
      violations.push({ path: "name", message: `must be at most ${LIMITS.nameLength} characters` });
    if (requestIds.length === 0)
      violations.push({ path: "requestIds", message: "a set needs at least one request" });
    if (requestIds.length > LIMITS.requests)
      violations.push({ path: "requestIds", message: `a set holds at most ${LIMITS.requests} requests` });
    requestIds.forEach((id, i) => {
      if (requestIds.indexOf(id) !== i)
        violations.push({ path: `requestIds[${i}]`, message: "names a request twice" });
    });
    if (violations.length > 0) throw validationError(violations, "the agreement set is not valid");

    const id = uuidv7();
    const made = async (tx: Queryable) => {
      const { rows } = await tx.query<{ id: string; agreement_set_id: string | null }>(
        `SELECT id, agreement_set_id FROM signature_requests
          WHERE workspace_id = $1 AND id = ANY($2::uuid[])${inCallMode("test")} ORDER BY id FOR UPDATE`,
        [workspaceId, requestIds.filter(isUuid)],
      );
      const problems = requestIds.flatMap((requestId, i): FieldViolation[] => {
        const row = rows.find((r) => r.id === requestId);
        if (!row)
          return [
            { path: `requestIds[${i}]`, message: "there is no such signature request in this workspace" },
          ];
        if (row.agreement_set_id)
          return [
            { path: `requestIds[${i}]`, message: `belongs to agreement set ${row.agreement_set_id} already` },
          ];
        return [];
      });
      if (problems.length > 0) throw validationError(problems, "the agreement set is not valid");
      await tx.query("INSERT INTO agreement_sets (id, workspace_id, name) VALUES ($1, $2, $3)", [
        id,
        workspaceId,
        name.trim(),
      ]);
      for (const [position, requestId] of requestIds.entries()) {
        await tx.query(
          "UPDATE signature_requests SET agreement_set_id = $2, agreement_set_position = $3, updated_at = now() WHERE id = $1",
          [requestId, id, position],
        );
        await appendAudit(tx, requestId, "added_to_agreement_set", actorOf(actor), { agreementSetId: id });
      }
      return this.read(tx, workspaceId, id);
    };
    return validateOnly ? rolledBack(this.db, made) : this.db.transaction(made);
  }

  get(workspaceId: string, id: string): Promise<AgreementSet> {
    return this.read(this.db, workspaceId, id);
  }

  private async read(db: Queryable, workspaceId: string, id: string): Promise<AgreementSet> {
    if (!isUuid(id)) throw notFound("agreement set");
    const { rows } = await db.query<{ id: string; name: string; created_at: Date }>(
      "SELECT id, name, created_at FROM agreement_sets WHERE id = $1 AND workspace_id = $2",
      [id, workspaceId],
    );
    const set = rows[0];
    if (!set) throw notFound("agreement set");
    // A set's requests are all of one mode (made so): one of the other mode's is none of the caller's.
    const members = await db.query<{ id: string; status: RequestStatus }>(
      `SELECT id, status FROM signature_requests WHERE agreement_set_id = $1${inCallMode("test")}
        ORDER BY agreement_set_position`,
      [id],
    );
    if (members.rows.length === 0) throw notFound("agreement set");
    return create(AgreementSetSchema, {
      id: set.id,
      workspaceId,
      name: set.name,
      requests: members.rows.map((m) => ({ requestId: m.id, status: m.status })),
      status: derivedStatus(members.rows.map((m) => m.status)),
      createTime: timestampFromDate(set.created_at),
    });
  }
}
