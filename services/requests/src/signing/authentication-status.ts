/**
 * Where a signing session stands with the codes its signer is asked for (signer-authentication.ts
 * sends and checks them): which methods are asked and passed, a lock-out, the code sent. Sessions
 * read it before they show a document, and signing, declining and attaching wait on it.
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  type SignerAuthentication as SignerAuthenticationMessage,
  SignerAuthenticationSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { Queryable } from "@countersign/kit";
import { authenticationOf } from "../core/messages.js";
import type { RecipientRow } from "../core/store/rows.js";

/** Wrong codes that lock a recipient out (signer-authentication.ts says for how long). */
export const MAX_FAILURES = 5;

/** A session's code row: the methods it passed, and the e-mailed code it was sent last. */
export interface SessionCodeRow {
  verified_methods: string[];
  code_notification_id: string | null;
  code_sent_at: Date | null;
}

const NO_CODES: SessionCodeRow = { verified_methods: [], code_notification_id: null, code_sent_at: null };

/** Where the session's signer stands: what is asked, what is passed, a lock-out, the code sent. */
export async function authenticationStatus(
  db: Queryable,
  recipient: RecipientRow,
  session: { sessionId: string },
): Promise<SignerAuthenticationMessage> {
  // Most signers are asked for no code: their session's code row has nothing to say.
  if (authenticationOf(recipient).length === 0) return describeAuthentication(recipient, NO_CODES);
  return describeAuthentication(recipient, await sessionCodes(db, session.sessionId));
}

/**
 * The methods the session's signer has still to pass: none once every one asked for is passed.
 * Signing, declining and reading the document wait for an empty list.
 */
export function pendingMethods(recipient: RecipientRow, session: { verifiedMethods: string[] }): string[] {
  return authenticationOf(recipient).filter((m) => !session.verifiedMethods.includes(m));
}

/** Refuses what a signer may do only once they have given the codes asked of them. */
export function assertAuthenticated(recipient: RecipientRow, session: { verifiedMethods: string[] }): void {
  const pending = pendingMethods(recipient, session);
  if (pending.length > 0) {
    throw new ConnectError(
      `give the ${pending.map((m) => (m === "access_code" ? "access code" : "e-mailed code")).join(" and the ")} first`,
      Code.PermissionDenied,
    );
  }
}

export async function sessionCodes(db: Queryable, sessionId: string): Promise<SessionCodeRow> {
  const { rows } = await db.query<SessionCodeRow>(
    "SELECT verified_methods, code_notification_id, code_sent_at FROM signing_sessions WHERE id = $1",
    [sessionId],
  );
  return rows[0] ?? NO_CODES;
}

export function describeAuthentication(
  recipient: RecipientRow,
  codes: SessionCodeRow,
): SignerAuthenticationMessage {
  const locked = recipient.auth_locked_until && recipient.auth_locked_until.getTime() > Date.now();
  const methods = authenticationOf(recipient);
  return create(SignerAuthenticationSchema, {
    methods,
    verified: codes.verified_methods.filter((m) => methods.includes(m)),
    lockedUntil: locked ? timestampFromDate(recipient.auth_locked_until as Date) : undefined,
    attemptsLeft: attemptsLeft(recipient.auth_failures),
    emailHint: recipient.email_code_required ? emailHint(recipient.email) : "",
    codeSentTime: codes.code_sent_at ? timestampFromDate(codes.code_sent_at) : undefined,
  });
}

/** Wrong codes the recipient may give before their next lock-out. */
export function attemptsLeft(failures: number): number {
  return MAX_FAILURES - (failures % MAX_FAILURES);
}

/** "ada@example.com" as "a•••@example.com": enough to know the mailbox, not to learn it. */
export function emailHint(email: string): string {
  const at = email.lastIndexOf("@");
  return at < 1 ? "•••" : `${email[0]}•••${email.slice(at)}`;
}
