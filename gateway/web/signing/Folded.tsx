/**
 * On a phone the document needs the screen: what only some signers read (the instructions, the sender's
 * message, the agreement's full words) folds behind one line they can open. Elsewhere it shows as is.
 */
import { type ReactNode, useEffect, useState } from "react";

/** The width styles.css lays the page out for a phone at. */
const PHONE = "(max-width: 560px)";

/** Whether the page is laid out for a phone, following the window as it changes. */
export function useCompact(): boolean {
  const [compact, setCompact] = useState(() => window.matchMedia(PHONE).matches);
  useEffect(() => {
    const query = window.matchMedia(PHONE);
    const update = () => setCompact(query.matches);
    update();
    query.addEventListener("change", update);
    return () => query.removeEventListener("change", update);
  }, []);
  return compact;
}

/** `children` behind a disclosure that reads `summary` on a phone; as they are elsewhere. */
export function Folded({
  compact,
  summary,
  className,
  children,
}: {
  compact: boolean;
  summary: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  if (!compact) return <>{children}</>;
  return (
    <details className={["folded", className].filter(Boolean).join(" ")}>
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
