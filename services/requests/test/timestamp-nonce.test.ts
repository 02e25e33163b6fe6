import * as asn1js from "asn1js";
import { timestampNonce } from "../src/pdf/pades/timestamp-client.js";

describe("the nonce sent to a time-stamping authority", () => {
  it("is always a positive INTEGER in its minimal DER form, so no authority refuses or re-encodes it", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 4096; i++) {
      const nonce = timestampNonce();
      const first = nonce[0] ?? 0;
      expect(first).toBeGreaterThanOrEqual(1);
      expect(first).toBeLessThanOrEqual(0x7f);
      const der = new Uint8Array(new asn1js.Integer({ valueHex: new Uint8Array(nonce).buffer }).toBER());
      expect([...der.subarray(0, 2)]).toEqual([0x02, 16]);
      expect(Buffer.from(der.subarray(2)).equals(nonce)).toBe(true);
      seen.add(nonce.toString("hex"));
    }
    expect(seen.size).toBe(4096);
  });
});
