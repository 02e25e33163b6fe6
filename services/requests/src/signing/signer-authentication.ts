/**
 * What a signer gives before the document is shown, when the sender asked for it: the access code
 * the sender gave them another way, and a one-time code e-mailed to their address. A session passes
 * each method once; until it has passed them all it sees no document and can neither sign nor
 * decline. Wrong codes of every kind count toward one lock-out per recipient, whichever session gave
 * them: every fifth locks it, for longer each time, and only passing every method asked clears the
 * count. Each code sent, passed, failed and each lock-out is in the audit trail.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import type {
  Actor,
  SignerAuthentication as SignerAuthenticationMessage,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  busyError,
  currentTraceparent,
  type FieldViolation,
  type Queryable,
  uuidv7,
  validationError,
} from "@countersign/kit";
import { appendAudit } from "../core/audit-trail.js";
import { authenticationOf } from "../core/messages.js";
import type { RequestTransactions } from "../core/request-transactions.js";
import type { SignerCodes } from "../core/signer-codes.js";
import type { RecipientRow } from "../core/store/rows.js";
import {
  attemptsLeft,
  describeAuthentication,
  MAX_FAILURES,
  type SessionCodeRow,
  sessionCodes,
} from "./authentication-status.js";
import { type SessionRef, type SigningSessions, signerActor } from "./signing-sessions.js";

/**
 * How long a lock-out lasts: 15 minutes, doubled at each further lock-out up to 4 hours, so a short
 * access code cannot be walked through at 20 guesses an hour.
 */
const LOCK_MINUTES = 15;
const MAX_LOCK_MINUTES = 240;
/** How long an e-mailed code works, and how soon a session may ask for another. */
const CODE_MINUTES = 10;
const RESEND_SECONDS = 30;
/** E-mailed codes a recipient may ask for in an hour, across their sessions: the bound on resends. */
const CODES_PER_HOUR = 10;

export type AuthenticationMethod = "access_code" | "email_code";

export interface SignerAuthenticationDeps {
  sessions: SigningSessions;
  transactions: RequestTransactions;
  codes: SignerCodes;
}

export class SignerAuthentication {
  constructor(private readonly deps: SignerAuthenticationDeps) {}

  /** E-mails the session's signer a new code; the e-mail goes out as soon as this commits. */
  async sendCode(sessionToken: string, actor: Actor | undefined): Promise<SignerAuthenticationMessage> {
    const session = await this.deps.sessions.resolve(sessionToken);
    let answer: SignerAuthenticationMessage | undefined;
    await this.deps.transactions.mutate(session.workspaceId, session.requestId, async (tx, locked) => {
      const recipient = signerOf(locked.recipients, session);
      if (!recipient.email_code_required) {
        throw new ConnectError("the sender did not ask you for an e-mailed code", Code.FailedPrecondition);
      }
      assertNotLocked(recipient);
      await assertMaySendCode(tx, recipient.id, (await sessionCodes(tx, session.sessionId)).code_sent_at);
      const notificationId = uuidv7();
      await tx.query(
        `INSERT INTO notifications (id, request_id, workspace_id, recipient_id, kind, traceparent)
         VALUES ($1, $2, $3, $4, 'signing_code', $5)`,
        [notificationId, session.requestId, session.workspaceId, recipient.id, currentTraceparent()],
      );
      const after = await tx.query<SessionCodeRow>(
        `UPDATE signing_sessions SET code_notification_id = $2, code_sent_at = now(), codes_sent = codes_sent + 1
          WHERE id = $1 RETURNING verified_methods, code_notification_id, code_sent_at`,
        [session.sessionId, notificationId],
      );
      await appendAudit(tx, session.requestId, "authentication_code_sent", signerActor(recipient, actor), {
        to: recipient.email,
      });
      answer = describeAuthentication(recipient, after.rows[0] as SessionCodeRow);
    });
    return answer as SignerAuthenticationMessage;
  }

  /**
   * Checks the codes given. Right ones are passed for this session; a wrong one counts against the
   * recipient, is kept with its audit entry, and is refused naming the field and what is left.
   */
  async verify(
    sessionToken: string,
    given: { accessCode: string; emailCode: string },
    actor: Actor | undefined,
  ): Promise<SignerAuthenticationMessage> {
    const session = await this.deps.sessions.resolve(sessionToken);
    let outcome: { answer: SignerAuthenticationMessage } | { refusal: ConnectError } | undefined;
    await this.deps.transactions.mutate(session.workspaceId, session.requestId, async (tx, locked) => {
      const recipient = signerOf(locked.recipients, session);
      assertNotLocked(recipient);
      const asked = authenticationOf(recipient);
      const codes = await sessionCodes(tx, session.sessionId);
      const { passed, wrong, violations } = await this.check(tx, recipient, asked, codes, given);
      if (violations.length > 0) throw validationError(violations, "the codes cannot be checked");
      const by = signerActor(recipient, actor);
      if (wrong.length > 0) {
        outcome = { refusal: await countFailure(tx, session.requestId, recipient, wrong, by) };
        return;
      }
      const verified = [...new Set([...codes.verified_methods, ...passed])];
      const after = await tx.query<SessionCodeRow>(
        `UPDATE signing_sessions SET verified_methods = $2 WHERE id = $1
         RETURNING verified_methods, code_notification_id, code_sent_at`,
        [session.sessionId, verified],
      );
      // Only someone who has given every code asked clears the count: a right e-mailed code says
      // nothing of the access code guessed beside it, and would otherwise buy more guesses.
      const cleared = asked.every((m) => verified.includes(m));
      if (cleared) await tx.query("UPDATE recipients SET auth_failures = 0 WHERE id = $1", [recipient.id]);
      await appendAudit(tx, session.requestId, "authenticated", by, { methods: passed });
      outcome = {
        answer: describeAuthentication(
          cleared ? { ...recipient, auth_failures: 0 } : recipient,
          after.rows[0] as SessionCodeRow,
        ),
      };
    });
    // A wrong code is refused after its count is committed: a rolled-back count would allow
    // guessing without end.
    if (outcome && "refusal" in outcome) throw outcome.refusal;
    return (outcome as { answer: SignerAuthenticationMessage }).answer;
  }

  private async check(
    tx: Queryable,
    recipient: RecipientRow,
    asked: string[],
    codes: SessionCodeRow,
    given: { accessCode: string; emailCode: string },
  ): Promise<{
    passed: AuthenticationMethod[];
    wrong: AuthenticationMethod[];
    violations: FieldViolation[];
  }> {
    const passed: AuthenticationMethod[] = [];
    const wrong: AuthenticationMethod[] = [];
    const violations: FieldViolation[] = [];
    if (!given.accessCode.trim() && !given.emailCode.trim())
      violations.push({ path: "accessCode", message: "give the code the sender asked for" });
    if (given.accessCode.trim()) {
      if (!asked.includes("access_code")) {
        violations.push({ path: "accessCode", message: "the sender did not set an access code for you" });
      } else {
        const { rows } = await tx.query<{ access_code_hash: Buffer }>(
          "SELECT access_code_hash FROM recipients WHERE id = $1",
          [recipient.id],
        );
        const stored = rows[0]?.access_code_hash;
        if (stored && this.deps.codes.accessCodeMatches(recipient.id, given.accessCode, stored))
          passed.push("access_code");
        else wrong.push("access_code");
      }
    }
    if (given.emailCode.trim()) {
      if (!asked.includes("email_code")) {
        violations.push({ path: "emailCode", message: "the sender did not ask you for an e-mailed code" });
      } else if (!codes.code_notification_id || !codes.code_sent_at) {
        violations.push({
          path: "emailCode",
          message: "ask for a code first: none was sent in this session",
        });
      } else if (Date.now() - codes.code_sent_at.getTime() > CODE_MINUTES * 60_000) {
        violations.push({
          path: "emailCode",
          message: `this code is more than ${CODE_MINUTES} minutes old: ask for a new one`,
        });
      } else if (this.deps.codes.emailCodeMatches(codes.code_notification_id, given.emailCode)) {
        passed.push("email_code");
      } else wrong.push("email_code");
    }
    return { passed, wrong, violations };
  }
}

function signerOf(recipients: RecipientRow[], session: SessionRef): RecipientRow {
  return recipients.find((r) => r.id === session.recipientId) as RecipientRow;
}

/**
 * Refuses another e-mailed code once the recipient was sent the hour's allowance, whichever sessions
 * asked — opening the link again buys none — and while this session's last one is moments old (a
 * second click; a signer moving to another device is not kept waiting). The answer says when.
 */
async function assertMaySendCode(
  tx: Queryable,
  recipientId: string,
  sessionSentAt: Date | null,
): Promise<void> {
  const { rows } = await tx.query<{ sent: number; wait: number }>(
    `SELECT count(*)::int AS sent,
            COALESCE(extract(epoch FROM min(created_at) + interval '1 hour' - now()), 0)::float8 AS wait
       FROM notifications
      WHERE recipient_id = $1 AND kind = 'signing_code' AND created_at > now() - interval '1 hour'`,
    [recipientId],
  );
  const { sent = 0, wait = 0 } = rows[0] ?? {};
  if (sent >= CODES_PER_HOUR)
    throw tooSoon(Math.max(1, Math.ceil(wait)), `${CODES_PER_HOUR} codes were sent in the last hour`);
  const since = sessionSentAt ? (Date.now() - sessionSentAt.getTime()) / 1000 : Infinity;
  if (since < RESEND_SECONDS) throw tooSoon(Math.ceil(RESEND_SECONDS - since), "a code was sent moments ago");
}

/**
 * One wrong attempt counted, the lock-out it may bring; the error the signer is answered with. The
 * count runs on through lock-outs, so each lock-out after the first lasts twice the one before.
 */
async function countFailure(
  tx: Queryable,
  requestId: string,
  recipient: RecipientRow,
  wrong: AuthenticationMethod[],
  by: ReturnType<typeof signerActor>,
): Promise<ConnectError> {
  const failures = recipient.auth_failures + 1;
  const locks = failures % MAX_FAILURES === 0;
  const minutes = Math.min(MAX_LOCK_MINUTES, LOCK_MINUTES * 2 ** (failures / MAX_FAILURES - 1));
  const { rows } = await tx.query<{ auth_locked_until: Date | null }>(
    `UPDATE recipients SET auth_failures = $2,
            auth_locked_until = CASE WHEN $3 THEN now() + make_interval(mins => $4) ELSE auth_locked_until END
      WHERE id = $1 RETURNING auth_locked_until`,
    [recipient.id, failures, locks, locks ? minutes : 0],
  );
  await appendAudit(tx, requestId, "authentication_failed", by, { methods: wrong, failures });
  if (locks) {
    const until = rows[0]?.auth_locked_until as Date;
    await appendAudit(tx, requestId, "authentication_locked", by, { until });
    return lockedOut(until);
  }
  const left = attemptsLeft(failures);
  const next = Math.min(MAX_LOCK_MINUTES, LOCK_MINUTES * 2 ** Math.floor(failures / MAX_FAILURES));
  const tail = `${left} attempt${left === 1 ? "" : "s"} left before a ${next}-minute lock`;
  return validationError(
    wrong.map((method) =>
      method === "access_code"
        ? { path: "accessCode", message: `is not the access code the sender gave you; ${tail}` }
        : { path: "emailCode", message: `is not the code we e-mailed you; ${tail}` },
    ),
    "a code is wrong",
  );
}

function assertNotLocked(recipient: RecipientRow): void {
  if (recipient.auth_locked_until && recipient.auth_locked_until.getTime() > Date.now()) {
    throw lockedOut(recipient.auth_locked_until);
  }
}

function lockedOut(until: Date): ConnectError {
  const seconds = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return busyError(
    `too many wrong codes: try again after ${until.toISOString().slice(11, 16)} UTC, or ask the sender`,
    seconds,
  );
}

function tooSoon(seconds: number, why: string): ConnectError {
  return busyError(`${why}; ask again in ${seconds} s`, seconds);
}
