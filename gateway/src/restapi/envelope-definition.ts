/**
 * What a DocuSign client sends, as far as Countersign acts on it: envelope definitions (from a
 * template with `templateRoles`, or from `documents` with signers, carbon copies and their tabs),
 * envelope and recipient updates, and recipient views. Properties DocuSign knows and we do not act
 * on are ignored, as DocuSign ignores what it does not know; what we act on is checked.
 */
import { z } from "zod";
import { base64Text } from "../contract/base64.js";
import { id, text } from "../contract/values.js";
import { dsBoolean, dsId, dsInteger, dsNumber } from "./ds-values.js";

export const ANCHOR_UNITS = { pixels: 1, inches: 72, mms: 72 / 25.4, cms: 72 / 2.54 } as const;

export const Tab = z.object({
  documentId: dsId.optional(),
  pageNumber: dsInteger.optional(),
  xPosition: dsNumber.optional(),
  yPosition: dsNumber.optional(),
  anchorString: text().min(1).max(500).optional(),
  anchorXOffset: dsNumber.optional(),
  anchorYOffset: dsNumber.optional(),
  anchorUnits: z
    .string()
    .transform((unit) => unit.toLowerCase())
    .pipe(z.enum(Object.keys(ANCHOR_UNITS) as [keyof typeof ANCHOR_UNITS]))
    .optional(),
  anchorIgnoreIfNotPresent: dsBoolean.optional(),
  anchorCaseSensitive: dsBoolean.optional(),
  optional: dsBoolean.optional(),
  required: dsBoolean.optional(),
  width: dsNumber.optional(),
  height: dsNumber.optional(),
  tabLabel: text().max(200).optional(),
  /** Shown only while the tab of this label (a radio group: its groupName) reads conditionalParentValue. */
  conditionalParentLabel: text().max(200).optional(),
  conditionalParentValue: text().max(200).optional(),
  /** A list tab's choices: `text` is shown, `value` is what conditions compare (the text when absent). */
  listItems: z
    .array(z.object({ text: text().max(200), value: text().max(200).optional() }))
    .max(100)
    .optional(),
  /** A numerical tab's bounds. */
  minNumericalValue: dsNumber.optional(),
  maxNumericalValue: dsNumber.optional(),
  /** A checkbox's groups (tabGroups): the first is the group its checked boxes count in. */
  tabGroupLabels: z.array(text().max(100)).max(10).optional(),
});
export type Tab = z.infer<typeof Tab>;

/** DocuSign's tab lists and the field each becomes; radio groups and tab groups are read apart. */
export const TAB_TYPES = {
  signHereTabs: "signature",
  initialHereTabs: "initials",
  dateSignedTabs: "date_signed",
  textTabs: "text",
  checkboxTabs: "checkbox",
  fullNameTabs: "name",
  emailAddressTabs: "email",
  dateTabs: "date",
  numberTabs: "number",
  numericalTabs: "number",
  listTabs: "dropdown",
  signerAttachmentTabs: "attachment",
} as const;

/** A radio group: its buttons each placed (and required) like a tab, the group reading the chosen one's `value`. */
export const RadioGroupTab = z.object({
  groupName: text().min(1).max(100),
  documentId: dsId.optional(),
  conditionalParentLabel: text().max(200).optional(),
  conditionalParentValue: text().max(200).optional(),
  radios: z
    .array(Tab.extend({ value: text().min(1).max(200) }))
    .min(1)
    .max(100),
});
export type RadioGroupTab = z.infer<typeof RadioGroupTab>;

/** DocuSign's rule for how many checkboxes of a group are checked. */
export const TabGroup = z.object({
  groupLabel: text().min(1).max(100),
  groupRule: z
    .string()
    .transform((rule) => rule.toLowerCase())
    .pipe(z.enum(["selectatleast", "selectatmost", "selectexactly", "selectarange"]))
    .optional(),
  minimumRequired: dsInteger.optional(),
  maximumAllowed: dsInteger.optional(),
});
export type TabGroup = z.infer<typeof TabGroup>;

const Tabs = z.object({
  ...(Object.fromEntries(Object.keys(TAB_TYPES).map((list) => [list, z.array(Tab).max(500).optional()])) as {
    [K in keyof typeof TAB_TYPES]: z.ZodOptional<z.ZodArray<typeof Tab>>;
  }),
  radioGroupTabs: z.array(RadioGroupTab).max(100).optional(),
  tabGroups: z.array(TabGroup).max(100).optional(),
});

/**
 * DocuSign's per-recipient e-mail settings; Countersign reads the language (`de`, `pt_BR`, …), which
 * its e-mails and signing page then speak.
 */
const emailNotification = z.object({ supportedLanguage: text().max(20).optional() }).optional();

const Person = {
  name: text(),
  email: text(),
  recipientId: dsId.optional(),
  routingOrder: dsInteger.optional(),
  emailNotification,
};

/** DocuSign's access code: asked of the signer before the document is shown. */
const accessCode = text().optional();

export const Signer = z.object({
  ...Person,
  clientUserId: text().optional(),
  accessCode,
  roleName: text().optional(),
  tabs: Tabs.optional(),
});
export type Signer = z.infer<typeof Signer>;

/**
 * DocuSign's in-person signer: `signerName` signs on the device of their host, who starts the
 * signing (a recipient view asked with the host's `userName` and `email`).
 */
export const InPersonSigner = z.object({
  hostName: text(),
  hostEmail: text(),
  signerName: text(),
  /** Where the completed copy goes; the host's address when absent. */
  signerEmail: text().optional(),
  recipientId: dsId.optional(),
  routingOrder: dsInteger.optional(),
  emailNotification,
  clientUserId: text().optional(),
  accessCode,
  roleName: text().optional(),
  tabs: Tabs.optional(),
});

/** A recipient who fills tabs: a signer, or an in-person signer with their host; `path` names it in errors. */
export type SigningRecipient = Signer & { host?: { name: string; email: string }; path: string };

/** The envelope's signers and in-person signers, in that order, as one kind of recipient. */
export function signingRecipients(definition: EnvelopeDefinition): SigningRecipient[] {
  return [
    ...(definition.recipients?.signers ?? []).map((signer, i) => ({
      ...signer,
      path: `recipients.signers[${i}]`,
    })),
    ...(definition.recipients?.inPersonSigners ?? []).map(
      ({ hostName, hostEmail, signerName, signerEmail, ...rest }, i) => ({
        ...rest,
        name: signerName,
        email: signerEmail ?? hostEmail,
        host: { name: hostName, email: hostEmail },
        path: `recipients.inPersonSigners[${i}]`,
      }),
    ),
  ];
}

export const CarbonCopy = z.object(Person);

export const EnvelopeDocument = z.object({
  documentBase64: base64Text(),
  name: text().min(1).max(255),
  fileExtension: text().optional(),
  documentId: dsId,
});

export const TemplateRole = z.object({
  roleName: text(),
  name: text(),
  email: text(),
  clientUserId: text().optional(),
  routingOrder: dsInteger.optional(),
  accessCode,
  emailNotification,
});

/** Days of a schedule: 0 (never) to 30, as the requests service takes them. */
const scheduleDays = dsInteger.refine((days) => days >= 0 && days <= 30, "must be from 0 to 30");

/**
 * DocuSign's envelope notification: reminders (the first `reminderDelay` days after the e-mail,
 * then every `reminderFrequency` days) and an expiry `expireAfter` days after creation, warned
 * `expireWarn` days before; `useAccountDefaults` takes the workspace's instead.
 */
export const EnvelopeNotification = z.object({
  useAccountDefaults: dsBoolean.optional(),
  reminders: z
    .object({
      reminderEnabled: dsBoolean.optional(),
      reminderDelay: scheduleDays.optional(),
      reminderFrequency: scheduleDays.optional(),
    })
    .optional(),
  expirations: z
    .object({
      expireEnabled: dsBoolean.optional(),
      expireAfter: dsInteger.refine((days) => days >= 1 && days <= 999, "must be from 1 to 999").optional(),
      expireWarn: scheduleDays.optional(),
    })
    .optional(),
});
export type EnvelopeNotification = z.infer<typeof EnvelopeNotification>;

export const EnvelopeDefinition = z.object({
  status: z
    .string()
    .transform((status) => status.toLowerCase())
    .pipe(z.enum(["sent", "created"]))
    .optional(),
  emailSubject: text().optional(),
  emailBlurb: text().optional(),
  /** DocuSign lets signers reassign unless told not to; here they may only when the envelope says so. */
  allowReassign: dsBoolean.optional(),
  notification: EnvelopeNotification.optional(),
  templateId: id().optional(),
  templateRoles: z.array(TemplateRole).max(50).optional(),
  documents: z.array(EnvelopeDocument).max(20).optional(),
  recipients: z
    .object({
      signers: z.array(Signer).max(50).optional(),
      inPersonSigners: z.array(InPersonSigner).max(50).optional(),
      carbonCopies: z.array(CarbonCopy).max(50).optional(),
      /** DocuSign's certified delivery: a recipient who must view the documents, in routing order. */
      certifiedDeliveries: z.array(CarbonCopy).max(50).optional(),
    })
    .optional(),
});
export type EnvelopeDefinition = z.infer<typeof EnvelopeDefinition>;

/** `PUT /envelopes/{id}`: send a draft, void, or (with `resend_envelope=true`) nothing but a resend. */
export const EnvelopeUpdate = z.object({
  status: z
    .string()
    .transform((status) => status.toLowerCase())
    .optional(),
  voidedReason: text().optional(),
});

/** `PUT /envelopes/{id}/recipients`: new names and addresses, by recipientId. */
export const RecipientsUpdate = z.object({
  signers: z
    .array(z.object({ recipientId: dsId, name: text().optional(), email: text().optional() }))
    .optional(),
  carbonCopies: z
    .array(z.object({ recipientId: dsId, name: text().optional(), email: text().optional() }))
    .optional(),
});

export const RecipientViewRequest = z.object({
  returnUrl: text().optional(),
  authenticationMethod: text().optional(),
  email: text().optional(),
  userName: text().optional(),
  clientUserId: text().optional(),
  recipientId: dsId.optional(),
  /** DocuSign's focused view: the pages that may frame the signing, its own apps' origin among them. */
  frameAncestors: z.array(text()).max(10).optional(),
  /** DocuSign's focused view: the origins its messages come from; ours come from the signing URL's. */
  messageOrigins: z.array(text()).max(10).optional(),
});
