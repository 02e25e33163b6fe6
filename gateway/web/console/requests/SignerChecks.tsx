/**
 * What a signer gives before the document is shown, as a sender sets it: an access code the sender
 * gives them another way, and a one-time code e-mailed to them. Both optional; neither for a copy.
 */
import { useId } from "react";
import { TextField } from "../ui";

export interface SignerCheckValues {
  accessCode: string;
  emailCode: boolean;
}

export const NO_CHECKS: SignerCheckValues = { accessCode: "", emailCode: false };

/** The part of a recipient's body that carries the checks: nothing when none was set. */
export function checksBody(checks: SignerCheckValues | undefined) {
  return {
    ...(checks?.accessCode.trim() ? { accessCode: checks.accessCode.trim() } : {}),
    ...(checks?.emailCode ? { emailCode: true } : {}),
  };
}

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
