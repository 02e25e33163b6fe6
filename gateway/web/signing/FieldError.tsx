/**
 * What is wrong with a field (or with the whole form), said where the reader looks and announced
 * to a screen reader at once; nothing while nothing is wrong. The id lets the field name it in
 * aria-describedby.
 */
import type { ReactNode } from "react";

export function FieldError({ id, children }: { id?: string; children: ReactNode }) {
  return children ? (
    <p id={id} className="field-error-text" role="alert">
      {children}
    </p>
  ) : null;
}
