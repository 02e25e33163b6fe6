/** What the console says of a seal certificate's expiry: nothing until 30 days before, then how soon. */
import { formatDay } from "../dates";

const DAY_MS = 24 * 3600 * 1000;
/** From when the console warns, as the `SealCertificateExpiresSoon` alert does. */
export const WARN_DAYS = 30;

export interface ExpiryWarning {
  tone: "warning" | "error";
  text: string;
}

/** How the certificate is replaced: the workspace's own here, the deployment's by its operator. */
const replace = (own: boolean) =>
  own
    ? "Upload its replacement below"
    : "Ask the operator to renew the deployment's (COUNTERSIGN_SEAL_P12), or upload this workspace's own below";

export function expiryWarning(notAfter: string, now: Date, own: boolean): ExpiryWarning | undefined {
  const left = new Date(notAfter).getTime() - now.getTime();
  const on = formatDay(new Date(notAfter));
  if (left <= 0)
    return {
      tone: "error",
      text: `It expired on ${on}: documents completed now carry a seal PDF readers reject. ${replace(own)}.`,
    };
  if (left > WARN_DAYS * DAY_MS) return undefined;
  const days = Math.ceil(left / DAY_MS);
  return {
    tone: "warning",
    text: `It expires in ${days} ${days === 1 ? "day" : "days"}, on ${on}. ${replace(own)} before then: documents sealed before keep their valid seal.`,
  };
}
