/**
 * What a sender sets about who signs: per signer, an access code the sender gives them another way
 * and a one-time code e-mailed to them (both optional, neither for a copy); per request, whether a
 * signer may hand it to someone else.
 */
import { useId } from "react";
import { CheckField, TextField } from "../ui";
import type { SignerCheckValues } from "./signer-checks";

export function SignerChecks({
  value,
  onChange,
  error,
}: {
  value: SignerCheckValues;
  onChange: (next: SignerCheckValues) => void;
  error: (field: "accessCode" | "emailCode") => string | undefined;
}) {
  const emailId = useId();
  return (
    <details className="signer-checks" open={value.accessCode !== "" || value.emailCode || undefined}>
      <summary>Confirm who signs (optional)</summary>
      <TextField
        label="Access code"
        optional
        autoComplete="off"
        value={value.accessCode}
        maxLength={50}
        onChange={(e) => onChange({ ...value, accessCode: e.target.value })}
        error={error("accessCode")}
        placeholder="4 to 50 characters; tell the signer by phone or letter"
      />
      <label className="check" htmlFor={emailId}>
        <input
          id={emailId}
          type="checkbox"
          checked={value.emailCode}
          onChange={(e) => onChange({ ...value, emailCode: e.target.checked })}
        />{" "}
        Ask for a one-time code sent to their inbox before they see the document
      </label>
      {error("emailCode") ? (
        <p className="field-error" role="alert">
          {error("emailCode")}
        </p>
      ) : null}
    </details>
  );
}

/** Whether signers may hand the request to someone else, with a reason, from the signing page. */
export function ReassignChoice({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
}) {
  return (
    <CheckField className="check reassign-choice" checked={checked} onChange={onChange}>
      Signers may assign it to someone else (they give a reason; you see who and why)
    </CheckField>
  );
}
