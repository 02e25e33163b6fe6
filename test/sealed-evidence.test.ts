/**
 * Evidence anyone can check: a request completed with a time-stamping authority is sealed PAdES
 * B-LTA, and validators nobody here wrote accept it — poppler's pdfsig and MuPDF's mutool the seal,
 * OpenSSL the seal's CMS over its byte range and both RFC 3161 tokens (the signature's time-stamp
 * inside the seal, and the document time-stamp over seal and validation data) against the
 * authority's root. Distributed mode uses the launcher's own authority on loopback; standalone is
 * pointed at one by COUNTERSIGN_TSA_URL, and without one seals B-B and says so.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code } from "@connectrpc/connect";
import { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { networkTransport, serviceClient } from "@countersign/kit";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { startLocalTimestampAuthority } from "../deploy/local/src/timestamp-authority.js";
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { embeddedSigner } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { laidSignatures, mutoolVerify, openssl, pdfsig, pdfText } from "./support/pdf-tools.js";

const infra = await distributedInfra();
const authorityDir = await mkdtemp(join(tmpdir(), "countersign-tsa-"));
const authority = await startLocalTimestampAuthority(authorityDir);
afterAll(async () => {
  await authority.close();
  await infra?.close();
});

interface Mode {
  start: () => Promise<Deployment>;
  /** The root the deployment's time-stamps chain to, PEM. */
  root: (deployment: Deployment) => Promise<string>;
}

const modes: [string, Mode][] = [
  [
    "standalone",
    {
      start: () =>
        startStandalone(undefined, {
          env: {
            COUNTERSIGN_TSA_URL: authority.url,
            COUNTERSIGN_TSA_CA_FILE: join(authorityDir, "root.pem"),
          },
        }),
      root: async () => authority.rootPem,
    },
  ],
];
if (infra) {
  modes.push([
    "distributed",
    {
      start: () => startDistributed(infra),
      root: (deployment) => readFile(join(deployment.dataDir, "tsa", "root.pem"), "utf8"),
    },
  ]);
}

/** Signs an embedded request through and downloads its sealed PDF. */
async function sealedDocument(gateway: string, key: string): Promise<Uint8Array> {
  const { request, signer, fields } = await embeddedSigner(gateway, key);
  const signed = await signer.call("/sign/api/submit", {
    consent: true,
    values: Object.fromEntries(fields.map((id) => [id, { kind: "typed", text: "Ada Lovelace" }])),
  });
  expect(signed.status).toBe(200);
  const api = `${gateway}/api/v1`;
  const done = await eventually(async () => {
    const got = (await call(api, `/signature-requests/${request.id}`, { key })).body as {
      status: string;
      signedDocumentId: string | null;
    };
    return got.status === "completed" ? got : undefined;
  }, 60_000);
  const download = await fetch(`${api}/documents/${done.signedDocumentId}/download`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(download.status).toBe(200);
  return new Uint8Array(await download.arrayBuffer());
}

/** The seal's signature value and the signature time-stamp token it carries, from its CMS. */
function signatureTimestamp(cms: Buffer): { signatureValue: Buffer; token: Buffer } {
  const info = new pkijs.ContentInfo({ schema: asn1js.fromBER(new Uint8Array(cms)).result });
  const signerInfo = new pkijs.SignedData({ schema: info.content }).signerInfos[0] as pkijs.SignerInfo;
  const attribute = signerInfo.unsignedAttrs?.attributes.find((a) => a.type === "1.2.840.113549.1.9.16.2.14");
  if (!attribute) throw new Error("the seal carries no signature time-stamp");
  return {
    signatureValue: Buffer.from(signerInfo.signature.valueBlock.valueHexView),
    token: Buffer.from((attribute.values[0] as asn1js.Sequence).toBER()),
  };
}

describe.each(modes)("%s mode with a time-stamping authority", (_mode, { start, root }) => {
  let deployment: Deployment;
  let gateway: string;
  let key: string;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = (
      JSON.parse((await deployment.cli("keys", "create", "--name", "evidence")).stdout) as { secret: string }
    ).secret;
  }, 180_000);
  afterAll(() => deployment?.destroy());

  test("the sealed PDF is PAdES B-LTA, and pdfsig, mutool and OpenSSL accept the seal and both time-stamps", async () => {
    const sealed = await sealedDocument(gateway, key);
    const rootPem = await root(deployment);

    const [seal, documentStamp, ...more] = laidSignatures(sealed);
    expect(more).toEqual([]);
    if (!seal || !documentStamp) throw new Error("the sealed PDF has not two signatures");
    // The document time-stamp covers the whole file, the seal and its validation data included.
    expect(documentStamp.byteRange[2] + documentStamp.byteRange[3]).toBe(sealed.length);
    expect(seal.byteRange[2] + seal.byteRange[3]).toBeLessThan(sealed.length);

    const poppler = await pdfsig(sealed);
    expect(poppler).toMatch(
      /Signature #1:[\s\S]*Signature Type: ETSI\.CAdES\.detached[\s\S]*Signature is Valid\./,
    );
    // poppler 22 lists a document time-stamp without verifying it (its type is "unknown" to it).
    expect(poppler).toMatch(
      /Signature #2:[\s\S]*Signature Field Name: Countersign time-stamp[\s\S]*Total document signed/,
    );

    const mupdf = await mutoolVerify(sealed);
    expect(mupdf).toContain("The signature is valid but there have been edits since signing.");

    const cms = await openssl({ "seal.der": seal.contents, "covered.bin": seal.covered }, (dir) => [
      "cms",
      "-verify",
      "-binary",
      "-inform",
      "DER",
      "-in",
      join(dir, "seal.der"),
      "-content",
      join(dir, "covered.bin"),
      "-noverify",
      "-out",
      join(dir, "out.bin"),
    ]);
    expect(cms).toMatchObject({ ok: true });
    expect(cms.output).toContain("Verification successful");

    const { signatureValue, token } = signatureTimestamp(seal.contents);
    const signatureStamp = await openssl(
      { "value.bin": signatureValue, "token.der": token, "root.pem": rootPem },
      (dir) => [
        "ts",
        "-verify",
        "-data",
        join(dir, "value.bin"),
        "-in",
        join(dir, "token.der"),
        "-token_in",
        "-CAfile",
        join(dir, "root.pem"),
      ],
    );
    expect(signatureStamp.output).toContain("Verification: OK");

    const documentVerdict = await openssl(
      { "covered.bin": documentStamp.covered, "token.der": documentStamp.contents, "root.pem": rootPem },
      (dir) => [
        "ts",
        "-verify",
        "-data",
        join(dir, "covered.bin"),
        "-in",
        join(dir, "token.der"),
        "-token_in",
        "-CAfile",
        join(dir, "root.pem"),
      ],
    );
    expect(documentVerdict.output).toContain("Verification: OK");

    const words = (await pdfText(sealed)).replace(/\s+/g, " ");
    expect(words).toContain("Evidence PAdES B-LTA: the seal is time-stamped by 127.0.0.1:");
  }, 120_000);
});

test("in distributed mode only the sealer is given the seal's key, and it answers no requests call", async () => {
  if (!infra) return;
  const deployment = await startDistributed(infra);
  try {
    const { pids, services, operatorToken } = JSON.parse(
      await readFile(join(deployment.dataDir, "distributed.json"), "utf8"),
    ) as { pids: Record<string, number>; services: Record<string, string[]>; operatorToken: string };
    const environment = async (name: string) =>
      (await readFile(`/proc/${pids[name]}/environ`, "latin1"))
        .split("\0")
        .map((entry) => entry.split("=")[0]);
    expect(await environment("requests-sealer-0")).toEqual(
      expect.arrayContaining(["COUNTERSIGN_SEAL_P12", "COUNTERSIGN_SEAL_P12_PASSWORD_FILE"]),
    );
    expect(await environment("requests-0")).not.toContain("COUNTERSIGN_SEAL_P12");
    const sealer = serviceClient(
      RequestsService,
      networkTransport(services["requests-sealer"]?.[0] as string, operatorToken),
    );
    await expect(sealer.getSignatureRequest({ workspaceId: "x", requestId: "y" })).rejects.toMatchObject({
      code: Code.Unimplemented,
    });
  } finally {
    await deployment.destroy();
  }
}, 180_000);

test("without a time-stamping authority the seal is PAdES B-B, and the certificate of completion says its time is the service's clock", async () => {
  const deployment = await startStandalone();
  try {
    const gateway = deployment.gateways[0] as string;
    const { secret } = JSON.parse((await deployment.cli("keys", "create", "--name", "plain")).stdout) as {
      secret: string;
    };
    const sealed = await sealedDocument(gateway, secret);
    expect(laidSignatures(sealed)).toHaveLength(1);
    expect(await pdfsig(sealed)).toContain("Total document signed");
    expect((await pdfText(sealed)).replace(/\s+/g, " ")).toContain(
      "Evidence PAdES B-B: the seal's time is this service's own clock",
    );
  } finally {
    await deployment.destroy();
  }
}, 120_000);
