/**
 * The sender's workspace's look: its colour on every button and link, its logo in the header, and
 * our name left off where it asks. Until the session is read nothing names anyone, so a workspace
 * that hides our name never shows it, not even while the page loads.
 */
import { brandShades } from "@countersign/domain/web";
import { createContext, type ReactNode, useContext, useEffect } from "react";
import { onOwnOrigin } from "../shared/own-origin";
import type { Session } from "./api";

type Branding = Session["branding"];

export interface Brand {
  branding: Branding;
  /** Who sent the request, named in the header when our name is hidden and there is no logo. */
  sender: string;
}

const BrandContext = createContext<Brand | undefined>(undefined);

const SHADES = { accent: "--accent", strong: "--accent-strong", soft: "--accent-soft" } as const;

/** Shows the children in the brand of the session last read, if any. */
export function BrandProvider({ brand, children }: { brand: Brand | undefined; children: ReactNode }) {
  const color = brand?.branding.accentColor;
  useEffect(() => {
    const style = document.documentElement.style;
    const shades = color ? brandShades(color) : undefined;
    for (const [shade, variable] of Object.entries(SHADES)) {
      if (shades) style.setProperty(variable, shades[shade as keyof typeof SHADES]);
      else style.removeProperty(variable);
    }
  }, [color]);
  return <BrandContext.Provider value={brand}>{children}</BrandContext.Provider>;
}

/** The brand of a session, for the page to keep while it shows that session's screens. */
export function brandOf(session: Session): Brand {
  return { branding: session.branding, sender: session.request.sender };
}

/** The header's name: the workspace's logo, our name, or the workspace's own where ours is hidden. */
export function BrandName() {
  const brand = useContext(BrandContext);
  if (!brand) return null;
  const { branding, sender } = brand;
  if (branding.logoUrl) {
    return (
      <p className="brand has-logo">
        <img
          className="brand-logo"
          src={onOwnOrigin(branding.logoUrl)}
          alt={branding.emailSenderName ?? sender}
          data-testid="brand-logo"
        />
      </p>
    );
  }
  if (branding.hideProductName) {
    // The workspace's own name: it must give one to leave ours off.
    const name = branding.emailSenderName ?? sender;
    return name ? (
      <p className="brand" dir="auto">
        {name}
      </p>
    ) : null;
  }
  return (
    <p className="brand">
      <span className="brand-mark" aria-hidden="true" />
      Countersign
    </p>
  );
}

/** A window title, followed by our name unless the workspace hides it. */
export function titled(title: string, branding: Branding): string {
  return branding.hideProductName ? title : `${title} · Countersign`;
}

/** Our name at the foot of a card, unless the workspace hides it (or is not known yet). */
export function BrandFoot() {
  const brand = useContext(BrandContext);
  if (!brand || brand.branding.hideProductName) return <span />;
  return <p className="brand-foot">Countersign</p>;
}
