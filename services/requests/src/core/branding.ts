/**
 * How a workspace's signing pages and e-mails look: read here, below the features that show it (the
 * signing page, the e-mails); the signing feature's BrandingBook checks and keeps it.
 */
import type { Queryable } from "@countersign/kit";

export interface Branding {
  /** "#rrggbb", or empty for ours. */
  accentColor: string;
  hideProductName: boolean;
  /** Hex SHA-256 of the logo; empty when there is none. */
  logoSha256: string;
  /** The name e-mails come from, in place of "<sender> via Countersign"; empty for that. */
  emailSenderName: string;
}

const OURS: Branding = { accentColor: "", hideProductName: false, logoSha256: "", emailSenderName: "" };

export async function brandingOf(db: Queryable, workspaceId: string): Promise<Branding> {
  const { rows } = await db.query<{
    accent_color: string;
    hide_product_name: boolean;
    logo_sha256: string;
    email_sender_name: string;
  }>(
    `SELECT accent_color, hide_product_name, logo_sha256, email_sender_name
       FROM workspace_branding WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = rows[0];
  if (!row) return OURS;
  return {
    accentColor: row.accent_color,
    hideProductName: row.hide_product_name,
    logoSha256: row.logo_sha256,
    emailSenderName: row.email_sender_name,
  };
}
