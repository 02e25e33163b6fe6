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
  /** The address e-mails come from once its domain is verified; empty for the deployment's. */
  emailSenderAddress: string;
  /** The proof the address's domain must publish, and when it was found; absent without an address. */
  emailDomain?: { domain: string; token: string; verifiedAt: Date | null };
}

const OURS: Branding = {
  accentColor: "",
  hideProductName: false,
  logoSha256: "",
  emailSenderName: "",
  emailSenderAddress: "",
};

/** The TXT record a sending domain publishes, and its value for a token. */
export const emailDomainRecord = (domain: string, token: string) => ({
  txtName: `_countersign.${domain}`,
  txtValue: `countersign-verification=${token}`,
});

/** The address e-mails come from: the workspace's once verified, else none (the deployment's). */
export function verifiedSenderAddress(branding: Branding): string {
  return branding.emailDomain?.verifiedAt ? branding.emailSenderAddress : "";
}

/** What a signer's page is given: how it looks, not where the workspace's e-mails come from. */
export async function pageBrandingOf(db: Queryable, workspaceId: string) {
  const { accentColor, hideProductName, logoSha256, emailSenderName } = await brandingOf(db, workspaceId);
  return { accentColor, hideProductName, logoSha256, emailSenderName };
}

export async function brandingOf(db: Queryable, workspaceId: string): Promise<Branding> {
  const { rows } = await db.query<{
    accent_color: string;
    hide_product_name: boolean;
    logo_sha256: string;
    email_sender_name: string;
    email_sender_address: string;
    email_domain_token: string;
    email_domain_verified_at: Date | null;
  }>(
    `SELECT accent_color, hide_product_name, logo_sha256, email_sender_name, email_sender_address,
            email_domain_token, email_domain_verified_at
       FROM workspace_branding WHERE workspace_id = $1`,
    [workspaceId],
  );
  const row = rows[0];
  if (!row) return OURS;
  const domain = row.email_sender_address.split("@")[1];
  return {
    accentColor: row.accent_color,
    hideProductName: row.hide_product_name,
    logoSha256: row.logo_sha256,
    emailSenderName: row.email_sender_name,
    emailSenderAddress: row.email_sender_address,
    ...(domain
      ? {
          emailDomain: {
            domain,
            token: row.email_domain_token,
            verifiedAt: row.email_domain_verified_at,
          },
        }
      : {}),
  };
}
