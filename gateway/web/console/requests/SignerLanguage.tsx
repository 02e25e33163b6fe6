/**
 * The language a sender sets for a recipient: their e-mails and signing page are in it. Unset, the
 * signing page follows their browser and the e-mails are in English.
 */
import { SIGNER_LOCALE_NAMES, SIGNER_LOCALES } from "@countersign/domain/web";
import type { SignerLocale } from "../types";
import { SelectField } from "../ui";

export function SignerLanguage({
  value,
  onChange,
  small,
}: {
  value: SignerLocale | "";
  onChange: (next: SignerLocale | "") => void;
  /** Labelled as the fields beside it are, in a compact row. */
  small?: boolean;
}) {
  return (
    <SelectField
      label="Their language"
      small={small}
      value={value}
      any="As their browser asks (e-mails in English)"
      options={SIGNER_LOCALES.map((code) => ({ value: code, label: SIGNER_LOCALE_NAMES[code] }))}
      onChange={onChange}
    />
  );
}
