/**
 * The language a sender sets for a recipient: their e-mails and signing page are in it. Unset, the
 * signing page follows their browser and the e-mails are in English.
 */
import { LOCALES } from "../../shared/signer-locales";
import { SelectField } from "../ui";

export function SignerLanguage({
  value,
  onChange,
  small,
}: {
  value: string;
  onChange: (next: string) => void;
  /** Labelled as the fields beside it are, in a compact row. */
  small?: boolean;
}) {
  return (
    <SelectField
      label="Their language"
      small={small}
      value={value}
      any="As their browser asks (e-mails in English)"
      options={LOCALES.map((l) => ({ value: l.code, label: l.name }))}
      onChange={onChange}
    />
  );
}
