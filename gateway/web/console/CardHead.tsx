/** A card's head: its title, a line saying what the card holds, and the card's one action. */
import type { ReactNode } from "react";

export function CardHead({
  title,
  description,
  action,
}: {
  title: string;
  description: ReactNode;
  action: ReactNode;
}) {
  return (
    <div className="card-head">
      <div>
        <h2>{title}</h2>
        <p className="muted">{description}</p>
      </div>
      {action}
    </div>
  );
}
