/**
 * How a workspace's signing pages and e-mails look to its recipients: one colour, whether our name
 * shows, the name and address its e-mails come from, and a logo. Ours until the workspace sets its
 * own; every value is checked here, where it is kept, so whatever reaches a page or an e-mail is a
 * colour white text reads on, a name that is no address, an address whose domain proved it is the
 * workspace's, and an image a browser draws.
 */
import { createHash, randomBytes } from "node:crypto";
import { domainToASCII } from "node:url";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { brandColorOf, LOGO_LIMITS, MAX_SENDER_NAME } from "@countersign/domain";
import type {
  BrandingLogo,
  Branding as BrandingMessage,
  BrandingSchema,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import {
  type Database,
  type FieldViolation,
  isUuid,
  lookupTxt,
  notFound,
  TxtLookupFailed,
  validationError,
} from "@countersign/kit";
import { MalformedJpeg, withoutJpegMetadata } from "@countersign/kit/jpeg-metadata.js";
import { MalformedPng, withoutPngMetadata } from "@countersign/kit/png-metadata.js";
import { imageSize } from "image-size";
import { z } from "zod";
import { type Branding, brandingOf, emailDomainRecord } from "../core/branding.js";

function accentColorOf(text: string, violations: FieldViolation[]): string {
  if (text === "") return "";
  const kept = brandColorOf(text);
  if ("message" in kept) violations.push({ path: "accentColor", message: kept.message });
  return "color" in kept ? kept.color : "";
}

/** A From line's name: one line of text, which no reader could take for an address. */
function senderNameOf(text: string, violations: FieldViolation[]): string {
  // Compared as a reader sees it: a fullwidth "＠" is an "@".
  const name = text.normalize("NFKC").trim();
  const refuse = (message: string) => {
    violations.push({ path: "emailSenderName", message });
    return "";
  };
  if (name.length > MAX_SENDER_NAME) return refuse(`must be at most ${MAX_SENDER_NAME} characters`);
  // Control characters and line breaks could start another header; nodemailer encodes the rest.
  if (/\p{Cc}/u.test(name)) return refuse("must be one line of text");
  // Direction and other invisible controls could make the name read as something else.
  if (/\p{Cf}/u.test(name)) return refuse("must not hold invisible formatting characters");
  if (name.includes("@"))
    return refuse("must be a name, not an address: e-mails come from the deployment's address");
  return name;
}

type BrandingMessageInit = MessageInitShape<typeof BrandingSchema>;

/** The longest address SMTP carries (RFC 5321's path, less its brackets). */
const MAX_ADDRESS = 254;

/** A sending address as it is kept: one mailbox, its domain in lower case and IDNs as punycode. */
function senderAddressOf(text: string, violations: FieldViolation[]): string {
  const address = text.trim();
  if (address === "") return "";
  const at = address.lastIndexOf("@");
  const domain = at > 0 ? domainToASCII(address.slice(at + 1)) : "";
  const kept = `${address.slice(0, at)}@${domain}`;
  // A host name of two labels or more: an address at a bare name or an IP could not publish a record.
  const hostName = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/;
  if (at <= 0 || !hostName.test(domain) || kept.length > MAX_ADDRESS || !z.email().safeParse(kept).success) {
    violations.push({
      path: "emailSenderAddress",
      message: "must be one e-mail address, such as contracts@example.com",
    });
    return "";
  }
  return kept;
}

/** A logo as it is kept: its type read from its bytes, a JPEG without what its camera wrote. */
function keptLogo(logo: BrandingLogo): { contentType: string; content: Uint8Array } {
  const refuse = (message: string) => validationError([{ path: "logo", message }]);
  const { content } = logo;
  if (content.length > LOGO_LIMITS.bytes) throw refuse(`must be at most ${LOGO_LIMITS.bytes / 1024} KiB`);
  let size: ReturnType<typeof imageSize>;
  try {
    size = imageSize(content);
  } catch {
    throw refuse("must be a PNG or JPEG image");
  }
  if (size.type !== "png" && size.type !== "jpg") {
    // An SVG may carry scripts, and other formats are not drawn everywhere a signer reads.
    throw refuse(`must be a PNG or JPEG image, not ${size.type ?? "this format"}`);
  }
  const { width, height } = size;
  const { minSide, maxWidth, maxHeight } = LOGO_LIMITS;
  if (width < minSide || height < minSide || width > maxWidth || height > maxHeight) {
    throw refuse(
      `is ${width}×${height} pixels; it must be ${minSide} to ${maxWidth} pixels wide and ${minSide} to ${maxHeight} high`,
    );
  }
  try {
    // A logo is shown to every signer: its author's notes and where a photo was taken stay behind.
    return size.type === "png"
      ? { contentType: "image/png", content: withoutPngMetadata(content) }
      : { contentType: "image/jpeg", content: withoutJpegMetadata(content) };
  } catch (err) {
    if (err instanceof MalformedJpeg || err instanceof MalformedPng)
      throw refuse("must be a PNG or JPEG image that can be read whole");
    throw err;
  }
}

/** What a workspace's mail depends on that is not its own: for its SPF and DKIM facts, and DNS. */
export interface MailFacts {
  /** The SMTP server e-mails are handed to (host:port); empty when they are written to the outbox. */
  relay: string;
  /** The deployment's own address: the envelope sender, where bounces go. */
  bounceAddress: string;
  /** The resolvers a sending domain's record is looked up at; the system's when empty. */
  dnsServers: readonly string[];
}

/** The branding of every workspace, as the API reads and replaces it. */
export class BrandingBook {
  constructor(
    private readonly db: Database,
    private readonly mail: MailFacts,
  ) {}

  async get(workspaceId: string): Promise<BrandingMessageInit> {
    return this.message(await brandingOf(this.db, workspaceId));
  }

  async update(workspaceId: string, branding: BrandingMessage | undefined): Promise<BrandingMessageInit> {
    const violations: FieldViolation[] = [];
    const accentColor = accentColorOf(branding?.accentColor ?? "", violations);
    const emailSenderName = senderNameOf(branding?.emailSenderName ?? "", violations);
    const emailSenderAddress = senderAddressOf(branding?.emailSenderAddress ?? "", violations);
    const hideProductName = branding?.hideProductName ?? false;
    // E-mails name who they come from: without ours, the workspace's own (a sender's name is often
    // their address, which no From line should show as a name).
    if (hideProductName && !emailSenderName && !violations.some((v) => v.path === "emailSenderName")) {
      violations.push({
        path: "emailSenderName",
        message: "is needed when our name is left off: e-mails come from this name",
      });
    }
    if (violations.length > 0) throw validationError(violations, "the branding is not valid");
    // A new domain must prove itself anew: its token and verification go with the old one.
    await this.db.query(
      `INSERT INTO workspace_branding (workspace_id, accent_color, hide_product_name, email_sender_name,
         email_sender_address, email_domain_token)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (workspace_id) DO UPDATE
         SET accent_color = $2, hide_product_name = $3, email_sender_name = $4, email_sender_address = $5,
             email_domain_token = CASE WHEN split_part(workspace_branding.email_sender_address, '@', 2) = split_part($5, '@', 2)
                                        AND workspace_branding.email_domain_token <> ''
                                       THEN workspace_branding.email_domain_token ELSE $6 END,
             email_domain_verified_at = CASE WHEN split_part(workspace_branding.email_sender_address, '@', 2) = split_part($5, '@', 2)
                                             THEN workspace_branding.email_domain_verified_at END,
             updated_at = now()`,
      [
        workspaceId,
        accentColor,
        hideProductName,
        emailSenderName,
        emailSenderAddress,
        emailSenderAddress ? randomBytes(18).toString("base64url") : "",
      ],
    );
    return this.get(workspaceId);
  }

  /** Looks the sending domain's record up and, found, lets e-mails come from the address. */
  async verifyEmailDomain(workspaceId: string): Promise<BrandingMessageInit> {
    const branding = await brandingOf(this.db, workspaceId);
    const domain = branding.emailDomain;
    if (!domain) {
      throw new ConnectError("the workspace has no sending address to verify", Code.FailedPrecondition);
    }
    const { txtName, txtValue } = emailDomainRecord(domain.domain, domain.token);
    let records: string[];
    try {
      records = await lookupTxt(txtName, { servers: this.mail.dnsServers });
    } catch (err) {
      if (err instanceof TxtLookupFailed) throw new ConnectError(err.message, Code.Unavailable);
      throw err;
    }
    if (!records.includes(txtValue)) {
      throw new ConnectError(
        records.length === 0
          ? `there is no TXT record at ${txtName} yet: publish one with the value ${txtValue} (DNS changes can take a while to reach everyone)`
          : `the TXT records at ${txtName} do not include ${txtValue}: publish it beside them`,
        Code.FailedPrecondition,
      );
    }
    // Only if the address is still the one whose record was looked up.
    await this.db.query(
      `UPDATE workspace_branding SET email_domain_verified_at = now(), updated_at = now()
        WHERE workspace_id = $1 AND email_sender_address = $2 AND email_domain_token = $3`,
      [workspaceId, branding.emailSenderAddress, domain.token],
    );
    return this.get(workspaceId);
  }

  private message(branding: Branding): BrandingMessageInit {
    const { emailDomain, ...shown } = branding;
    return {
      ...shown,
      ...(emailDomain
        ? {
            emailDomain: {
              domain: emailDomain.domain,
              ...emailDomainRecord(emailDomain.domain, emailDomain.token),
              ...(emailDomain.verifiedAt ? { verifyTime: timestampFromDate(emailDomain.verifiedAt) } : {}),
              relay: this.mail.relay,
              bounceAddress: this.mail.bounceAddress,
            },
          }
        : {}),
    };
  }

  /** Replaces the logo, or removes it when there is none. */
  async setLogo(workspaceId: string, logo: BrandingLogo | undefined): Promise<BrandingMessageInit> {
    const kept = logo ? keptLogo(logo) : undefined;
    const sha256 = kept ? createHash("sha256").update(kept.content).digest("hex") : "";
    await this.db.query(
      `INSERT INTO workspace_branding (workspace_id, logo, logo_content_type, logo_sha256) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO UPDATE
         SET logo = $2, logo_content_type = $3, logo_sha256 = $4, updated_at = now()`,
      [workspaceId, kept ? Buffer.from(kept.content) : null, kept?.contentType ?? "", sha256],
    );
    return this.get(workspaceId);
  }

  /**
   * The workspace's logo. Given the digest the caller has, the image is read only when it is the
   * current one: a request for a replaced logo's address costs no image.
   */
  async logo(
    workspaceId: string,
    sha256 = "",
  ): Promise<{ logo?: { contentType: string; content: Uint8Array }; sha256: string }> {
    if (!isUuid(workspaceId)) throw notFound("logo");
    const { rows } = await this.db.query<{
      logo: Buffer | null;
      logo_content_type: string;
      logo_sha256: string;
    }>(
      `SELECT CASE WHEN $2 = '' OR logo_sha256 = $2 THEN logo END AS logo, logo_content_type, logo_sha256
         FROM workspace_branding WHERE workspace_id = $1 AND logo_sha256 <> ''`,
      [workspaceId, sha256],
    );
    const row = rows[0];
    if (!row) throw notFound("logo");
    return {
      ...(row.logo
        ? { logo: { contentType: row.logo_content_type, content: new Uint8Array(row.logo) } }
        : {}),
      sha256: row.logo_sha256,
    };
  }
}
