/**
 * A workspace's own seal: an Organization Admin uploads a PKCS#12 file, which is checked before it
 * is kept; from then on every sealing process seals that workspace's documents with it (and no
 * other workspace's), until it is replaced or removed. Expiry warnings go out once per threshold.
 */
import { fromBinary } from "@bufbuild/protobuf";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import { subjects } from "@countersign/domain";
import {
  type SealCertificateExpiring,
  SealCertificateExpiringSchema,
} from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { fieldViolations, type SecretBox, serviceClient, uuidv7 } from "@countersign/kit";
import { Registry } from "prom-client";
import { sealFile, testCa } from "../../../test/support/seal-files.js";
import { workspaceSealBox } from "../src/completion/seal-certificates.js";
import { SealChoice, SealUnavailable } from "../src/completion/seal-choice.js";
import { Seal } from "../src/pdf/seal.js";
import { verifyDocument } from "../src/pdf/verify/verify-document.js";
import { type Harness, rejection, startHarness, testSeal, tokenOf, until } from "./harness.js";

let h: Harness;
let api: Awaited<ReturnType<Harness["buildModule"]>>;
/** The console's calls go to a process that serves the API and holds no key. */
let console: ReturnType<typeof serviceClient<typeof RequestsService>>;
const warnings: SealCertificateExpiring[] = [];
const ca = testCa();
const DAY = 86_400_000;

beforeAll(async () => {
  h = await startHarness();
  api = await h.buildModule({ role: "api", seal: undefined });
  await api.start();
  console = serviceClient(RequestsService, h.transport(api));
  await h.bus.consume(subjects.sealCertificateExpiring, "test-seal-warnings", async (msg) => {
    warnings.push(fromBinary(SealCertificateExpiringSchema, msg.data));
  });
});
afterAll(async () => {
  await api.stop();
  await h.close();
});

const actor = { ip: "203.0.113.7", userAgent: "Mozilla/5.0 (test)" };

/** A request of the workspace signed by both its signers and sealed; the common name of its seal. */
async function sealedIn(workspaceId: string): Promise<string> {
  const tag = uuidv7().slice(-12);
  const emails = [`ada-${tag}@example.com`, `bob-${tag}@example.com`];
  const { signatureRequest } = await h.requests.createSignatureRequest({
    workspaceId,
    title: "Mutual NDA",
    templateId: await h.template(workspaceId),
    recipients: [
      { name: "Ada Lovelace", email: emails[0] as string, role: "Client" },
      { name: "Bob Babbage", email: emails[1] as string, role: "Countersigner" },
    ],
    send: true,
  });
  for (const email of emails) {
    await until(async () => (await h.mails()).some((m) => m.to === email && m.link));
    const link = (await h.mails()).find((m) => m.to === email && m.link)?.link as string;
    const { sessionToken } = await h.requests.openSigningLink({ token: tokenOf(link), actor });
    const view = await h.requests.getSigningSession({ sessionToken });
    const field = view.signatureRequest?.fields[0]?.id as string;
    await h.requests.submitSignature({
      sessionToken,
      consent: true,
      values: { [field]: { value: { case: "typed", value: { text: "Signed" } } } },
      actor,
    });
  }
  await h.module.completionIdle();
  const { signatureRequest: done } = await h.requests.getSignatureRequest({
    workspaceId,
    requestId: signatureRequest?.id as string,
  });
  expect(done?.status).toBe("completed");
  const chunks: Uint8Array[] = [];
  for await (const part of h.documents.downloadDocument({
    workspaceId,
    documentId: done?.signedDocumentId as string,
  })) {
    if (part.part.case === "chunk") chunks.push(part.part.value);
  }
  const report = await verifyDocument(Buffer.concat(chunks));
  expect(report.verdict).toBe("intact");
  return report.signatures[0]?.signer?.commonName as string;
}

async function upload(workspaceId: string, file: { p12: Buffer; password: string }) {
  const { certificate } = await console.replaceSealCertificate({
    workspaceId,
    pkcs12: file.p12,
    password: file.password,
    uploadedBy: "admin@acme.example",
  });
  return certificate;
}

test("a workspace's own seal seals its documents from the next completion, on the sealing process, and no other workspace's; removing it brings back the deployment's", async () => {
  const acme = uuidv7();
  const other = uuidv7();
  const uploaded = await upload(acme, sealFile({ commonName: "Acme Corp seal", ca }));
  expect(uploaded).toMatchObject({
    subject: "CN=Acme Corp seal,O=Acme",
    issuer: "CN=Countersign Test Seal CA",
    selfSigned: false,
    workspaceOwned: true,
    uploadedBy: "admin@acme.example",
  });
  expect((await console.getSealCertificate({ workspaceId: acme })).certificate?.subject).toBe(
    "CN=Acme Corp seal,O=Acme",
  );
  expect((await console.getSealCertificate({ workspaceId: other })).certificate).toMatchObject({
    subject: "CN=Countersign test seal,O=Countersign",
    workspaceOwned: false,
    uploadedBy: "",
  });

  expect(await sealedIn(acme)).toBe("Acme Corp seal");
  expect(await sealedIn(other)).toBe("Countersign test seal");

  await upload(acme, sealFile({ commonName: "Acme Corp seal 2027", ca }));
  expect(await sealedIn(acme)).toBe("Acme Corp seal 2027");

  const { certificate: fallback } = await console.removeSealCertificate({ workspaceId: acme });
  expect(fallback).toMatchObject({
    subject: "CN=Countersign test seal,O=Countersign",
    workspaceOwned: false,
  });
  expect(await sealedIn(acme)).toBe("Countersign test seal");
});

test("a file is checked before it is kept: each fault is refused with a sentence naming it, and nothing changes", async () => {
  const ws = uuidv7();
  await upload(ws, sealFile({ commonName: "Kept seal", ca }));
  const otherCa = testCa("Some Other CA");
  const faults: [string, { p12: Buffer; password: string }, string][] = [
    [
      "not a PKCS#12 file",
      { p12: Buffer.from("not a certificate at all"), password: "" },
      "cannot be opened",
    ],
    [
      "a wrong password",
      { ...sealFile({ commonName: "A", ca }), password: "wrong" },
      "cannot be opened: it is not a PKCS#12 file, or the password does not fit",
    ],
    [
      "a 1024-bit key",
      sealFile({ commonName: "A", ca, bits: 1024 }),
      "its RSA key has 1024 bits; a seal needs at least 2048",
    ],
    [
      "an expired certificate",
      sealFile({
        commonName: "A",
        ca,
        notBefore: new Date(Date.now() - 400 * DAY),
        notAfter: new Date(Date.now() - 2 * DAY),
      }),
      "its certificate expired on ",
    ],
    [
      "a certificate not yet valid",
      sealFile({ commonName: "A", ca, notBefore: new Date(Date.now() + 5 * DAY) }),
      "its certificate is valid only from ",
    ],
    ["a CA's certificate", sealFile({ commonName: "A", cA: true }), "certificate authority's certificate"],
    [
      "a key usage without signatures",
      sealFile({ commonName: "A", ca, keyUsage: { keyEncipherment: true } }),
      "key usage allows no signatures",
    ],
    [
      "a web server's certificate",
      sealFile({ commonName: "A", ca, extKeyUsage: { serverAuth: true } }),
      "extended key usage does not allow signing documents",
    ],
    [
      "a chain without the issuer",
      sealFile({ commonName: "A", ca, chain: [otherCa.certificate] }),
      "do not include the one that issued",
    ],
    ["an empty file", { p12: Buffer.alloc(0), password: "" }, "the file is empty"],
    ["a file too large", { p12: Buffer.alloc(64 * 1024 + 1), password: "" }, "larger than 64 KiB"],
  ];
  const refusals = await Promise.all(
    faults.map(async ([, file]) => {
      const err = await rejection(upload(ws, file));
      return { code: err.code, violations: fieldViolations(err) };
    }),
  );
  refusals.forEach((refusal, i) => {
    const [fault, , sentence] = faults[i] as (typeof faults)[number];
    expect({ fault, code: refusal.code, path: refusal.violations[0]?.path }).toEqual({
      fault,
      code: Code.InvalidArgument,
      path: "pkcs12",
    });
    expect(refusal.violations[0]?.message).toContain(sentence);
  });
  expect((await console.getSealCertificate({ workspaceId: ws })).certificate?.subject).toBe(
    "CN=Kept seal,O=Acme",
  );
});

test("a file issued for document signing, e-mail protection or self-signed without usages is taken", async () => {
  const ws = uuidv7();
  for (const file of [
    sealFile({ commonName: "Signing", ca, extKeyUsage: { emailProtection: true } }),
    sealFile({ commonName: "Self-signed" }),
    sealFile({ commonName: "No password", ca, password: "" }),
  ]) {
    await expect(upload(ws, file)).resolves.toMatchObject({ workspaceOwned: true });
  }
});

test("the key is kept encrypted, bound to its workspace: a copied row does not open, nor does another link secret", async () => {
  const acme = uuidv7();
  const thief = uuidv7();
  await upload(acme, sealFile({ commonName: "Acme Corp seal", ca }));
  const { rows } = await h.db.query<{ sealed_pkcs12: Uint8Array }>(
    "SELECT sealed_pkcs12 FROM workspace_seals WHERE workspace_id = $1",
    [acme],
  );
  const sealed = Buffer.from(rows[0]?.sealed_pkcs12 as Uint8Array);
  expect(sealed.includes(Buffer.from("seal-password"))).toBe(false);
  await h.db.query(
    `INSERT INTO workspace_seals (workspace_id, sealed_pkcs12, subject, issuer, not_before, not_after, sha256_fingerprint, self_signed, uploaded_by)
     SELECT $2, sealed_pkcs12, subject, issuer, not_before, not_after, sha256_fingerprint, self_signed, uploaded_by FROM workspace_seals WHERE workspace_id = $1`,
    [acme, thief],
  );
  const deployment = new Seal(testSeal());
  const choose = (box: SecretBox) => new SealChoice(h.db, box, deployment, undefined);
  const ours = workspaceSealBox("a-link-secret-of-enough-length-for-tests");
  expect((await choose(ours).forWorkspace(acme)).identity.commonName).toBe("Acme Corp seal");
  await expect(choose(ours).forWorkspace(thief)).rejects.toThrow(SealUnavailable);
  const changed = choose(workspaceSealBox("another-link-secret-of-enough-length"));
  await expect(changed.forWorkspace(acme)).rejects.toThrow(
    "the workspace's own seal cannot be opened (the stored secret cannot be opened: COUNTERSIGN_LINK_SECRET has changed, or the row was altered); an Organization Admin uploads it again in Settings → Developer → Configuration",
  );
  await h.db.query("DELETE FROM workspace_seals WHERE workspace_id = $1", [thief]);
});

test("expiry warnings go once per certificate and threshold: 30 days, 7 days and at the expiry, the deployment's to every workspace without its own", async () => {
  await h.db.query("DELETE FROM workspace_seals");
  warnings.length = 0;
  const ws = uuidv7();
  const notAfter = new Date(Date.now() + 40 * DAY);
  const own = await upload(ws, sealFile({ commonName: "Short-lived seal", ca, notAfter }));
  const deployment = (await console.getSealCertificate({ workspaceId: "" })).certificate;
  if (!deployment?.notAfter) throw new Error("the deployment's seal was not reported");
  const deploymentExpiry = timestampDate(deployment.notAfter);

  expect(await api.warnSealExpiry(new Date(notAfter.getTime() - 31 * DAY))).toBe(0);
  expect(await api.warnSealExpiry(new Date(notAfter.getTime() - 20 * DAY))).toBe(1);
  expect(await h.module.warnSealExpiry(new Date(notAfter.getTime() - 19 * DAY))).toBe(0);
  expect(await api.warnSealExpiry(new Date(notAfter.getTime() - 3 * DAY))).toBe(1);
  expect(await api.warnSealExpiry(new Date(notAfter.getTime() + DAY))).toBe(1);
  expect(await api.warnSealExpiry(new Date(notAfter.getTime() + 2 * DAY))).toBe(0);
  expect(await api.warnSealExpiry(new Date(deploymentExpiry.getTime() - 10 * DAY))).toBe(1);

  await until(() => warnings.length >= 4);
  expect(
    warnings.map((w) => [
      w.workspaceId,
      w.thresholdDays,
      w.subject,
      w.sha256Fingerprint,
      w.exceptWorkspaceIds,
    ]),
  ).toEqual([
    [ws, 30, "CN=Short-lived seal,O=Acme", own?.sha256Fingerprint, []],
    [ws, 7, "CN=Short-lived seal,O=Acme", own?.sha256Fingerprint, []],
    [ws, 0, "CN=Short-lived seal,O=Acme", own?.sha256Fingerprint, []],
    ["", 30, deployment?.subject, deployment?.sha256Fingerprint, [ws]],
  ]);
  expect(warnings.map((w) => w.notAfter && timestampDate(w.notAfter).getTime())).toEqual([
    ...Array(3).fill(Math.floor(notAfter.getTime() / 1000) * 1000),
    deploymentExpiry.getTime(),
  ]);
});

test("a certificate uploaded with less than 7 days left is warned about once, at the tightest threshold", async () => {
  await h.db.query("DELETE FROM workspace_seals");
  warnings.length = 0;
  const ws = uuidv7();
  await upload(
    ws,
    sealFile({ commonName: "Nearly expired seal", ca, notAfter: new Date(Date.now() + 5 * DAY) }),
  );
  expect(await api.warnSealExpiry()).toBe(1);
  expect(await api.warnSealExpiry()).toBe(0);
  await until(() => warnings.length >= 1);
  expect(warnings.map((w) => [w.workspaceId, w.thresholdDays])).toEqual([[ws, 7]]);
});

test("every requests process exports each workspace seal's expiry beside the deployment's", async () => {
  await h.db.query("DELETE FROM workspace_seals");
  const ws = uuidv7();
  const notAfter = new Date(Date.now() + 100 * DAY);
  const own = await upload(ws, sealFile({ commonName: "Metered seal", ca, notAfter }));
  const registry = new Registry();
  for (const metric of api.metrics ?? []) registry.registerMetric(metric);
  const text = await registry.metrics();
  expect(text).toContain(
    `seal_certificate_expiry_timestamp_seconds{sha256_fingerprint="${own?.sha256Fingerprint}",workspace_id="${ws}"} ${Math.floor(notAfter.getTime() / 1000)}`,
  );
  expect(text).toMatch(/^seal_certificate_expiry_timestamp_seconds\{sha256_fingerprint="[^"]+"\} \d+$/m);
});
