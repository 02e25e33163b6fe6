/**
 * Whether a signer signs in person with the console user beside them, on the user's device: no link
 * is e-mailed to the signer; the user starts the signing from the request's page when it is the
 * signer's turn, and the audit trail names the user as host.
 */
import { useId } from "react";
import { useSession } from "../session";

/** The signed-in user as the host of an in-person signing. */
export function useHost(): { name: string; email: string } | undefined {
  const { current } = useSession();
  if (current.state !== "signed-in") return undefined;
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
  const id = useId();
  return (
    <label className="check" htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} /> Signs
      in person with me, on my device: nothing is sent to them
    </label>
  );
}
