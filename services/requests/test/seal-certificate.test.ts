/**
 * The seal certificate's configuration: a PKCS#12 file given as a path or in base64, opened at
 * start so that a wrong file or password stops the process with one line naming the variable.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ConfigError } from "@countersign/kit";
import { generateSealP12, sealIdentity } from "../src/completion/seal-certificate.js";
import { configuredSeal } from "../src/config.js";

const p12 = generateSealP12("Acme Corp seal", "correct horse");

test("a generated certificate opens with its password and names its subject", () => {
  const identity = sealIdentity({ p12, password: "correct horse" });
  expect(identity.commonName).toBe("Acme Corp seal");
  expect(identity.notAfter.getTime()).toBeGreaterThan(Date.now() + 9 * 365 * 24 * 3600_000);
  expect(identity.certificateBytes).toBeGreaterThan(500);
});

test("the file is read from a path or from base64", async () => {
  const dir = await mkdtemp(join(tmpdir(), "seal-"));
  try {
    const path = join(dir, "seal.p12");
    await writeFile(path, p12);
    const fromPath = configuredSeal({
      COUNTERSIGN_SEAL_P12: path,
      COUNTERSIGN_SEAL_P12_PASSWORD: "correct horse",
    });
    const fromBase64 = configuredSeal({
      COUNTERSIGN_SEAL_P12: p12.toString("base64"),
      COUNTERSIGN_SEAL_P12_PASSWORD: "correct horse",
    });
    expect(fromPath?.p12.equals(p12)).toBe(true);
    expect(fromBase64?.p12.equals(p12)).toBe(true);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a wrong password or a file that is not PKCS#12 stops the start naming the variable", () => {
  const wrongPassword = () =>
    configuredSeal({ COUNTERSIGN_SEAL_P12: p12.toString("base64"), COUNTERSIGN_SEAL_P12_PASSWORD: "wrong" });
  expect(wrongPassword).toThrow(ConfigError);
  expect(wrongPassword).toThrow(/^COUNTERSIGN_SEAL_P12: cannot be opened/);
  expect(() =>
    configuredSeal({ COUNTERSIGN_SEAL_P12: "/no/such/file.p12", COUNTERSIGN_SEAL_P12_PASSWORD: "" }),
  ).toThrow("COUNTERSIGN_SEAL_P12: is neither a readable file nor a PKCS#12 file in base64");
});

test("without a configured file there is no configured seal", () => {
  expect(configuredSeal({ COUNTERSIGN_SEAL_P12_PASSWORD: "" })).toBeUndefined();
});
