/**
 * When two e-mail addresses reach one mailbox, as far as Countersign can tell: the same after
 * trimming, lower-casing and Unicode NFC. Every comparison of addresses goes through here — a
 * request's recipients, and the people of auth, who are stored and looked up by this form — so
 * "Ada@x" and "ada@x " and a decomposed "é" are never two people in one place and one in another.
 */

/** The form of an address that comparisons and auth's lookups use. */
export function addressKey(email: string): string {
  return email.trim().normalize("NFC").toLowerCase().normalize("NFC");
}

export function sameAddress(a: string, b: string): boolean {
  return addressKey(a) === addressKey(b);
}
