/**
 * Merge values put into a request's fields before anyone sees it (the rule of which fields take one
 * is @countersign/domain's merge-fields.ts). Each value is checked as the signer's own would be, so
 * what the signer sees is something they could have written.
 */
import { labelKey, mergeLabels, PREFILLABLE_TYPES } from "@countersign/domain";
import type { FieldViolation } from "@countersign/kit";
import { prefillProblem } from "../core/field-values.js";
import type { LaidField } from "./request-layouts.js";

/**
 * The layout's fields with the merge values in place (`prefilled`), or every reason they cannot be:
 * a label no prefillable field has, or a value its field would refuse from a signer. Paths are
 * `mergeFields.<label>` as the caller wrote it.
 */
export function mergeInto<Field extends LaidField>(
  fields: Field[],
  values: Record<string, string>,
): { fields: (Field & { prefilled?: string })[]; violations: FieldViolation[] } {
  const violations: FieldViolation[] = [];
  const given = new Map<string, string>();
  const known = new Set(mergeLabels(fields).map(labelKey));
  for (const [label, value] of Object.entries(values)) {
    const path = `mergeFields.${label}`;
    if (!known.has(labelKey(label))) {
      const labels = mergeLabels(fields);
      violations.push({
        path,
        message: labels.length
          ? `no text, number or date field is labelled so; the template's are ${labels.map((l) => `"${l}"`).join(", ")}`
          : "no text, number or date field is labelled so; the template has none",
      });
      continue;
    }
    const earlier = given.get(labelKey(label));
    if (earlier !== undefined && earlier !== value.trim()) {
      violations.push({
        path,
        message: "is given twice, with another value, under a label that differs only in case or spaces",
      });
      continue;
    }
    given.set(labelKey(label), value.trim());
  }
  const merged = fields.map((field) => {
    const value = PREFILLABLE_TYPES.has(field.type) ? given.get(labelKey(field.label)) : undefined;
    if (value === undefined || value === "") return field;
    const problem = prefillProblem(field, value);
    if (problem) {
      const label = Object.keys(values).find((l) => labelKey(l) === labelKey(field.label)) ?? field.label;
      violations.push({ path: `mergeFields.${label}`, message: problem });
    }
    return { ...field, prefilled: value };
  });
  const reported = new Set<string>();
  return {
    fields: merged,
    violations: violations.filter((v) => !reported.has(v.path) && reported.add(v.path)),
  };
}
