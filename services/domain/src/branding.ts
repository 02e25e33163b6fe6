/**
 * A workspace's brand as the pages and e-mails draw it: where its logo is served, its colour, and
 * the shades the signing pages draw with that colour. The colour carries
 * white text on buttons, so it must be readable under it (WCAG 2.2 AA: 4.5:1); the services refuse
 * a lighter one rather than show buttons a signer cannot read. The pages derive the other shades
 * from it, so a workspace names one colour, not a palette it could get wrong.
 */
import { colord, extend } from "colord";
import a11yPlugin from "colord/plugins/a11y";
import mixPlugin from "colord/plugins/mix";

extend([a11yPlugin, mixPlugin]);

/** What a logo may be: its file's size and its sides in pixels (a header's logo, not a photo). */
export const LOGO_LIMITS = {
  bytes: 100 * 1024,
  minSide: 16,
  maxWidth: 1200,
  maxHeight: 400,
} as const;

/** The longest name e-mails may come from, as a From line shows it. */
export const MAX_SENDER_NAME = 70;

/** The contrast white text needs on the brand colour (WCAG 2.2 AA, normal text). */
export const MIN_BRAND_CONTRAST = 4.5;

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/** A colour as kept, "#rrggbb" in lower case; or why it cannot be one. */
export function brandColorOf(text: string): { color: string } | { message: string } {
  const color = text.trim().toLowerCase();
  if (!HEX_COLOR.test(color)) return { message: 'must be a colour written "#rrggbb", such as "#0b6e4f"' };
  const contrast = colord(color).contrast("#ffffff");
  if (contrast < MIN_BRAND_CONTRAST) {
    return {
      message: `is too light for white text on buttons: contrast ${contrast.toFixed(1)}:1 where at least ${MIN_BRAND_CONTRAST}:1 is needed; choose a darker shade`,
    };
  }
  return { color };
}

/** The shades the pages draw with, from a kept brand colour. */
export interface BrandShades {
  /** Buttons, links and focus rings. */
  accent: string;
  /** A pressed or hovered button. */
  strong: string;
  /** A selected row or a soft highlight behind text in the accent colour. */
  soft: string;
}

export function brandShades(color: string): BrandShades {
  const base = colord(color);
  return {
    accent: base.toHex(),
    strong: base.mix("#000000", 0.25).toHex(),
    soft: base.mix("#ffffff", 0.9).toHex(),
  };
}

/**
 * Where a workspace's logo is served, on the gateway's public URL: the digest makes the address
 * change with the image, so it is cached for good (and shown in e-mails, which the requests service
 * writes).
 */
export function logoPath(workspaceId: string, sha256: string): string {
  return `/sign/logos/${workspaceId}/${sha256}`;
}
