/**
 * Whether a signer signs in person with the console user beside them, on the user's device: no link
 * is e-mailed to the signer; the user starts the signing from the request's page when it is the
 * signer's turn, and the audit trail names the user as host.
 */
import { useOptionalSession } from "../session";
import { CheckField } from "../ui";

/** The signed-in user as the host of an in-person signing; none in an embedded view (no person). */
export function useHost(): { name: string; email: string } | undefined {
  const current = useOptionalSession()?.current;
  if (current?.state !== "signed-in") return undefined;
  const { email } = current.session.user;
  return { name: email, email };
}

export function InPersonChoice({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
}) {
  return (
    <CheckField checked={checked} onChange={onChange}>
      Signs in person with me, on my device: nothing is sent to them
    </CheckField>
  );
}
