/**
 * What a sender asks of a signer before the document is shown — an access code they give them
 * another way, a one-time code e-mailed to them — as a request's body carries it.
 */

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
