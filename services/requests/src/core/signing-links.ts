/**
 * Signing links. A link's token is HMAC-SHA256(link secret, link id), 256 bits: the database keeps
 * only the token's SHA-256, and a queued e-mail rebuilds the token from the link id when it is
 * sent, so neither a database dump nor the notification queue holds a usable token.
 */
import { createHash, createHmac } from "node:crypto";
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import type { EndedReason } from "@countersign/domain";
import { SigningEndedSchema, SigningReturnSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { problemError, type Queryable, uuidv7 } from "@countersign/kit";

export type LinkKind = "email" | "embedded";

export interface LinkRow {
  id: string;
  request_id: string;
  recipient_id: string;
  kind: LinkKind;
  return_url: string;
  /** The origin whose frame an embedded link opens in; empty for one opened as a page of its own. */
  frame_origin: string;
  open_by: Date | null;
  opened_at: Date | null;
  revoked_at: Date | null;
  /** The link's workspace leaves our name off its pages, those saying why a link no longer opens too. */
  hide_product_name: boolean;
}

/** A token is 43 base64url characters; anything else is not worth a database round trip. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

export class SigningLinks {
  constructor(
    private readonly secret: string,
    /** Where the service is reached from outside: signing links and the console start here. */
    readonly publicUrl: string,
  ) {}

  tokenOf(linkId: string): string {
    return createHmac("sha256", this.secret).update(linkId).digest("base64url");
  }

  urlOf(linkId: string): string {
    return `${this.publicUrl}/sign/${this.tokenOf(linkId)}`;
  }

  /** A new link's id and the hash of its token, as its row keeps them. */
  mint(): { id: string; tokenHash: Buffer } {
    const id = uuidv7();
    return { id, tokenHash: hashToken(this.tokenOf(id)) };
  }

  /** Makes a link for a recipient; returns its id. */
  async issue(
    tx: Queryable,
    link: {
      requestId: string;
      recipientId: string;
      kind: LinkKind;
      returnUrl?: string;
      frameOrigin?: string;
      openBy?: Date;
    },
  ): Promise<string> {
    const { id, tokenHash } = this.mint();
    await tx.query(
      `INSERT INTO signing_links (id, token_hash, request_id, recipient_id, kind, return_url, frame_origin, open_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        id,
        tokenHash,
        link.requestId,
        link.recipientId,
        link.kind,
        link.returnUrl ?? "",
        link.frameOrigin ?? "",
        link.openBy ?? null,
      ],
    );
    return id;
  }

  /** The link a token belongs to, locked for this transaction; NOT_FOUND for a token never issued. */
  async find(tx: Queryable, token: string): Promise<LinkRow> {
    const { rows } = TOKEN.test(token)
      ? await tx.query<LinkRow>(
          `SELECT l.id, l.request_id, l.recipient_id, l.kind, l.return_url, l.frame_origin, l.open_by, l.opened_at,
                  l.revoked_at,
                  COALESCE((SELECT b.hide_product_name FROM signature_requests r
                              JOIN workspace_branding b ON b.workspace_id = r.workspace_id
                             WHERE r.id = l.request_id), false) AS hide_product_name
             FROM signing_links l WHERE l.token_hash = $1 FOR UPDATE`,
          [hashToken(token)],
        )
      : { rows: [] };
    const link = rows[0];
    if (!link) throw new ConnectError("no such signing link", Code.NotFound);
    return link;
  }
}

export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token).digest();
}

/**
 * Links of these recipients (all, without ids) stop working (410 when opened), and the signing
 * sessions they opened end at once: a page left open must not go on reading the documents of a
 * request that was cancelled, declined or expired, or as a recipient whose address was changed.
 */
export async function revokeLinks(tx: Queryable, requestId: string, recipientIds?: string[]): Promise<void> {
  await tx.query(
    `UPDATE signing_links SET revoked_at = now()
      WHERE request_id = $1 AND revoked_at IS NULL AND ($2::uuid[] IS NULL OR recipient_id = ANY($2::uuid[]))`,
    [requestId, recipientIds ?? null],
  );
  await tx.query(
    `UPDATE signing_sessions SET ended_at = now()
      WHERE request_id = $1 AND ended_at IS NULL AND ($2::uuid[] IS NULL OR recipient_id = ANY($2::uuid[]))`,
    [requestId, recipientIds ?? null],
  );
}

/**
 * A 410 the signer can understand: the reason in words (for API clients and logs) and as a code
 * (SigningEnded) the signing page and the link pages say in the signer's language.
 */
export function signingEnded(
  reason: EndedReason,
  message: string,
  more: { completedAt?: Date; copyDays?: number; link?: LinkRow | undefined } = {},
): ConnectError {
  return problemError("gone", message, Code.FailedPrecondition, [
    {
      desc: SigningEndedSchema,
      value: create(SigningEndedSchema, {
        reason,
        completedTime: more.completedAt ? timestampFromDate(more.completedAt) : undefined,
        copyDays: more.copyDays ?? 0,
        hideProductName: more.link?.hide_product_name ?? false,
      }),
    },
    ...(more.link ? backToSender(more.link) : []),
  ]);
}

/** Why a link no longer opens, as a 410 the signer can understand; undefined when it still does. */
export function linkGone(link: LinkRow, now: Date): ConnectError | undefined {
  if (link.revoked_at) {
    return signingEnded(
      "link_replaced",
      "this signing link has been replaced; use the link in the most recent e-mail",
      { link },
    );
  }
  if (link.kind === "embedded" && link.opened_at) {
    return signingEnded("url_used", "this signing URL has been used already; ask for a new one", { link });
  }
  if (link.kind === "embedded" && link.open_by && link.open_by <= now) {
    return signingEnded("url_expired", "this signing URL has expired; ask for a new one", { link });
  }
  return undefined;
}

/**
 * Where an embedded link came from: its return URL, where a used or expired URL sends the signer
 * back (`ttl_expired`) rather than to a page, and its frame, inside which any page saying why it no
 * longer opens is shown.
 */
function backToSender(link: LinkRow) {
  if (!link.return_url && !link.frame_origin) return [];
  return [
    {
      desc: SigningReturnSchema,
      value: create(SigningReturnSchema, { returnUrl: link.return_url, frameOrigin: link.frame_origin }),
    },
  ];
}
