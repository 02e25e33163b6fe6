/**
 * The seal certificate's configuration: a PKCS#12 file and its password, each from a file, opened at
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

test("the key and its password are read from files, a trailing newline dropped", async () => {
  const dir = await mkdtemp(join(tmpdir(), "seal-"));
  try {
    await writeFile(join(dir, "seal.p12"), p12);
    await writeFile(join(dir, "password"), "correct horse\n");
    const seal = configuredSeal({
      COUNTERSIGN_SEAL_P12: join(dir, "seal.p12"),
      COUNTERSIGN_SEAL_P12_PASSWORD_FILE: join(dir, "password"),
    });
    expect(seal?.p12.equals(p12)).toBe(true);
    expect(seal?.password).toBe("correct horse");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a key or password in a variable is refused, naming what to do instead", () => {
  expect(() => configuredSeal({ COUNTERSIGN_SEAL_P12: p12.toString("base64") })).toThrow(
    "COUNTERSIGN_SEAL_P12: give the path of a file (a mounted Secret), not the file itself in the variable",
  );
  expect(() => configuredSeal({ COUNTERSIGN_SEAL_P12_PASSWORD: "correct horse" })).toThrow(
    /^COUNTERSIGN_SEAL_P12_PASSWORD: the seal's password is not read from a variable; put it in a file/,
  );
});

test("a wrong password or a file that is not there stops the start naming the variable", async () => {
  const dir = await mkdtemp(join(tmpdir(), "seal-"));
  try {
    await writeFile(join(dir, "seal.p12"), p12);
    await writeFile(join(dir, "password"), "wrong");
    const wrongPassword = () =>
      configuredSeal({
        COUNTERSIGN_SEAL_P12: join(dir, "seal.p12"),
        COUNTERSIGN_SEAL_P12_PASSWORD_FILE: join(dir, "password"),
      });
    expect(wrongPassword).toThrow(ConfigError);
    expect(wrongPassword).toThrow(/^COUNTERSIGN_SEAL_P12: cannot be opened/);
    expect(() => configuredSeal({ COUNTERSIGN_SEAL_P12: "/no/such/file.p12" })).toThrow(
      "COUNTERSIGN_SEAL_P12: /no/such/file.p12 cannot be read",
    );
    expect(() =>
      configuredSeal({
        COUNTERSIGN_SEAL_P12: join(dir, "seal.p12"),
        COUNTERSIGN_SEAL_P12_PASSWORD_FILE: "/no/such/password",
      }),
    ).toThrow("COUNTERSIGN_SEAL_P12_PASSWORD_FILE: /no/such/password cannot be read");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("without a configured file there is no configured seal", () => {
  expect(configuredSeal({})).toBeUndefined();
});
