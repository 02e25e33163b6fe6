/**
 * Merge fields: values a sender fills into a request's fields by the field's label (a bulk send's
 * CSV columns, or one request's `mergeFields`). Which fields take one, and how labels are matched,
 * is one rule for the gateway reading a CSV header and the requests service filling the fields.
 */

/** Fields that hold text a signer could also type. */
export const PREFILLABLE_TYPES: ReadonlySet<string> = new Set(["text", "number", "date"]);

/** How labels are matched: trimmed, ignoring case and runs of spaces, as a CSV header is typed. */
export function labelKey(label: string): string {
  return label.trim().toLowerCase().replace(/\s+/g, " ");
}

/** The labels the fields take merge values by, once each, as the first field spells it. */
export function mergeLabels(fields: readonly { type: string; label: string }[]): string[] {
  const labels = new Map<string, string>();
  for (const field of fields) {
    const key = labelKey(field.label);
    if (PREFILLABLE_TYPES.has(field.type) && key && !labels.has(key)) labels.set(key, field.label.trim());
  }
  return [...labels.values()];
}
