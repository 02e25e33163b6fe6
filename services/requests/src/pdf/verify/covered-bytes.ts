/**
 * The bytes a signature covers — the file before and after its /Contents — kept as views of the
 * file, never joined into a copy of it, and their digests, each computed once however many
 * signatures name the same range. pkijs wants the covered bytes whole; `digestingEngine` lets it
 * check a digest made here instead (a hostile file once had the verifier copy 21 MB per field).
 */
import { createHash } from "node:crypto";
import * as pkijs from "pkijs";

export class CoveredBytes {
  private readonly digests = new Map<string, Buffer>();

  constructor(readonly parts: readonly Uint8Array[]) {}

  /** The digest under `algorithm`, a WebCrypto name ("SHA-256") or node's ("sha256"). */
  digest(algorithm: string): Buffer {
    const name = algorithm.toLowerCase().replace("-", "");
    let digest = this.digests.get(name);
    if (!digest) {
      const hash = createHash(name);
      for (const part of this.parts) hash.update(part);
      digest = hash.digest();
      this.digests.set(name, digest);
    }
    return digest;
  }

  /**
   * The bytes in one piece, for the rare signature without signed attributes, whose mathematics is
   * over the bytes themselves: a copy, made for one check and then dropped.
   */
  joined(): Uint8Array {
    return this.parts.length === 1 ? (this.parts[0] as Uint8Array) : Buffer.concat(this.parts);
  }
}

/** What pkijs is given as the signed data when the digest comes from a CoveredBytes. */
export const STAND_IN = new ArrayBuffer(1);

type DigestArguments = Parameters<pkijs.CryptoEngine["digest"]>;

/** A pkijs engine that answers the digest of STAND_IN with `covered`'s, and computes every other. */
export function digestingEngine(covered: CoveredBytes): pkijs.ICryptoEngine {
  return new (class extends pkijs.CryptoEngine {
    override async digest(algorithm: DigestArguments[0], data: DigestArguments[1]): Promise<ArrayBuffer> {
      const buffer = ArrayBuffer.isView(data) ? data.buffer : data;
      if (buffer !== STAND_IN) return super.digest(algorithm, data);
      const digest = covered.digest(typeof algorithm === "string" ? algorithm : algorithm.name);
      return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer;
    }
  })({ name: "countersign-covered", crypto: globalThis.crypto });
}
