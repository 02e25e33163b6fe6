/**
 * A card's head: its title, a line saying what the card holds, and the card's one action — a
 * primary button that starts something (create, invite), or a quiet one that reads the card again.
 */
import type { ReactNode } from "react";

interface CardAction {
  label: string;
  onClick: () => void;
  /** Refresh and the like: a small secondary button. */
  quiet?: boolean;
}

export function CardHead({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action: CardAction;
}) {
  return (
    <div className="card-head">
      <div>
        <h2>{title}</h2>
        <p className="muted">{description}</p>
      </div>
      <button
        type="button"
        className={action.quiet ? "button secondary small" : "button primary"}
        onClick={action.onClick}
      >
        {action.label}
      </button>
    </div>
  );
}
