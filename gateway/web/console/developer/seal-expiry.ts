/** What the console says of a seal certificate's expiry: nothing until 30 days before, then how soon. */
import { formatDay } from "../dates";

const DAY_MS = 24 * 3600 * 1000;
/** From when the console warns, as the `SealCertificateExpiresSoon` alert does. */
export const WARN_DAYS = 30;

export interface ExpiryWarning {
  tone: "warning" | "error";
  text: string;
}

export function expiryWarning(notAfter: string, now: Date): ExpiryWarning | undefined {
  const left = new Date(notAfter).getTime() - now.getTime();
  const on = formatDay(new Date(notAfter));
  if (left <= 0)
    return {
      tone: "error",
      text: `It expired on ${on}: documents completed now carry a seal PDF readers reject. Replace it (COUNTERSIGN_SEAL_P12) and restart the sealing processes.`,
    };
  if (left > WARN_DAYS * DAY_MS) return undefined;
  const days = Math.ceil(left / DAY_MS);
  return {
    tone: "warning",
    text: `It expires in ${days} ${days === 1 ? "day" : "days"}, on ${on}. Replace it before then (COUNTERSIGN_SEAL_P12) and restart the sealing processes: documents sealed before keep their valid seal.`,
  };
}
