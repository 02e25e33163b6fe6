/**
 * How a workspace's signing pages and e-mails look to its recipients: one colour, whether our name
 * shows, the name its e-mails come from, and a logo. Ours until the workspace sets its own; every
 * value is checked here, where it is kept, so whatever reaches a page or an e-mail is a colour white
 * text reads on, a name that is no address, and an image a browser draws.
 */
import { createHash } from "node:crypto";
import { brandColorOf, LOGO_LIMITS, MAX_SENDER_NAME } from "@countersign/domain";
import type {
  BrandingLogo,
  Branding as BrandingMessage,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { type Database, type FieldViolation, isUuid, notFound, validationError } from "@countersign/kit";
import { MalformedJpeg, withoutJpegMetadata } from "@countersign/kit/jpeg-metadata.js";
import { MalformedPng, withoutPngMetadata } from "@countersign/kit/png-metadata.js";
import { imageSize } from "image-size";
import { type Branding, brandingOf } from "../core/branding.js";

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

/** The branding of every workspace, as the API reads and replaces it. */
export class BrandingBook {
  constructor(private readonly db: Database) {}

  get(workspaceId: string): Promise<Branding> {
    return brandingOf(this.db, workspaceId);
  }

  async update(workspaceId: string, branding: BrandingMessage | undefined): Promise<Branding> {
    const violations: FieldViolation[] = [];
    const accentColor = accentColorOf(branding?.accentColor ?? "", violations);
    const emailSenderName = senderNameOf(branding?.emailSenderName ?? "", violations);
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
    await this.db.query(
      `INSERT INTO workspace_branding (workspace_id, accent_color, hide_product_name, email_sender_name)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO UPDATE
         SET accent_color = $2, hide_product_name = $3, email_sender_name = $4, updated_at = now()`,
      [workspaceId, accentColor, hideProductName, emailSenderName],
    );
    return brandingOf(this.db, workspaceId);
  }

  /** Replaces the logo, or removes it when there is none. */
  async setLogo(workspaceId: string, logo: BrandingLogo | undefined): Promise<Branding> {
    const kept = logo ? keptLogo(logo) : undefined;
    const sha256 = kept ? createHash("sha256").update(kept.content).digest("hex") : "";
    await this.db.query(
      `INSERT INTO workspace_branding (workspace_id, logo, logo_content_type, logo_sha256) VALUES ($1, $2, $3, $4)
       ON CONFLICT (workspace_id) DO UPDATE
         SET logo = $2, logo_content_type = $3, logo_sha256 = $4, updated_at = now()`,
      [workspaceId, kept ? Buffer.from(kept.content) : null, kept?.contentType ?? "", sha256],
    );
    return brandingOf(this.db, workspaceId);
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
