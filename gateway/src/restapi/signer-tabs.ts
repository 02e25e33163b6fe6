/**
 * A DocuSign signer's tabs read as Countersign fields: each tab list's type, a radio group's buttons
 * as radio fields of one group, a checkbox's first tab group as its group with the group's rule as
 * its bounds, a list's items as options, a number's bounds, and the condition a tab names by its
 * parent's label — resolved to a field id once every field of the signer has one.
 */
import type { FieldRules, FieldType } from "@countersign/domain";
import { invalidBody } from "./docusign-errors.js";
import { type SigningRecipient, TAB_TYPES, type Tab, type TabGroup } from "./envelope-definition.js";

export interface SignerTab {
  type: FieldType;
  /** Where the field goes and how large it is: the tab itself, or a radio group's button. */
  tab: Tab;
  /** The tab's path in the envelope definition, for errors. */
  where: string;
  required: boolean;
  rules: Omit<FieldRules, "condition">;
  /** What a condition of another tab names this one by: its tabLabel, or a radio group's name. */
  name?: string;
  /** A list's options by the value a condition compares (DocuSign's item value; the text when none). */
  optionByValue?: Map<string, string>;
  /** The tab whose value shows this one. */
  parent?: { label: string; value: string };
}

/** The bounds a checkbox group's rule sets on how many of its boxes are checked. */
function groupBounds(group: TabGroup | undefined): Pick<FieldRules, "minimum" | "maximum"> {
  if (!group) return {};
  const { groupRule, minimumRequired: least, maximumAllowed: most } = group;
  switch (groupRule) {
    case "selectatleast":
      return { minimum: least ?? 1 };
    case "selectatmost":
      return most === undefined ? {} : { maximum: most };
    case "selectexactly":
      return { minimum: least ?? most, maximum: least ?? most };
    default:
      return { minimum: least, maximum: most };
  }
}

function parentOf(tab: {
  conditionalParentLabel?: string;
  conditionalParentValue?: string;
}): SignerTab["parent"] {
  return tab.conditionalParentLabel
    ? { label: tab.conditionalParentLabel, value: tab.conditionalParentValue ?? "" }
    : undefined;
}

/** Every tab of a signer as the field it becomes, in the order DocuSign lists them. */
export function* signerTabs(signer: SigningRecipient): Generator<SignerTab> {
  const at = `${signer.path}.tabs`;
  const groups = new Map((signer.tabs?.tabGroups ?? []).map((g) => [g.groupLabel, g]));
  for (const list of Object.keys(TAB_TYPES) as (keyof typeof TAB_TYPES)[]) {
    const type = TAB_TYPES[list];
    for (const [position, tab] of (signer.tabs?.[list] ?? []).entries()) {
      const where = `${at}.${list}[${position}]`;
      const group = type === "checkbox" ? tab.tabGroupLabels?.[0] : undefined;
      const rules: SignerTab["rules"] = {};
      let optionByValue: Map<string, string> | undefined;
      if (group) Object.assign(rules, { group }, groupBounds(groups.get(group)));
      if (type === "number") {
        Object.assign(rules, { minimum: tab.minNumericalValue, maximum: tab.maxNumericalValue });
      }
      if (type === "dropdown") {
        rules.options = (tab.listItems ?? []).map((item) => item.text);
        optionByValue = new Map((tab.listItems ?? []).map((item) => [item.value ?? item.text, item.text]));
      }
      yield {
        type,
        tab,
        where,
        // DocuSign's signing tabs are required unless optional; a grouped checkbox counts in its group.
        required:
          type === "signature" || type === "initials" || type === "attachment"
            ? tab.optional !== true
            : group
              ? tab.required === true
              : tab.required !== false,
        rules,
        name: tab.tabLabel,
        optionByValue,
        parent: parentOf(tab),
      };
    }
  }
  for (const [g, radioGroup] of (signer.tabs?.radioGroupTabs ?? []).entries()) {
    for (const [r, radio] of radioGroup.radios.entries()) {
      yield {
        type: "radio",
        tab: { ...radio, documentId: radio.documentId ?? radioGroup.documentId },
        where: `${at}.radioGroupTabs[${g}].radios[${r}]`,
        required: radio.required !== false,
        rules: { group: radioGroup.groupName, option: radio.value },
        name: radioGroup.groupName,
        parent: parentOf(radioGroup),
      };
    }
  }
}

/** Conditions named by label, resolved once the signer's fields have ids. */
export class TabConditions {
  private readonly named = new Map<string, { fieldId: string; optionByValue?: Map<string, string> }>();
  private readonly waiting: {
    fieldIds: string[];
    parent: NonNullable<SignerTab["parent"]>;
    where: string;
  }[] = [];

  /** Notes the fields a tab became: by its name, for conditions; and its own condition, to resolve. */
  add(tab: SignerTab, fieldIds: string[]): void {
    const [first] = fieldIds;
    if (tab.name && first && !this.named.has(tab.name)) {
      this.named.set(tab.name, { fieldId: first, optionByValue: tab.optionByValue });
    }
    if (tab.parent) this.waiting.push({ fieldIds, parent: tab.parent, where: tab.where });
  }

  /** Each field's condition by its parent's field id: `set` is called per field. */
  resolve(set: (fieldId: string, condition: { fieldId: string; value: string }) => void): void {
    for (const { fieldIds, parent, where } of this.waiting) {
      const target = this.named.get(parent.label);
      if (!target) {
        throw invalidBody(
          `${where}.conditionalParentLabel: "${parent.label}" is the tabLabel (or radio groupName) of none of this signer's tabs`,
        );
      }
      const value = target.optionByValue?.get(parent.value) ?? parent.value;
      for (const fieldId of fieldIds) set(fieldId, { fieldId: target.fieldId, value });
    }
  }
}
