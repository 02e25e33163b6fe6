/**
 * A request's evidence taken away and checked with other people's tools: the audit trail as CSV
 * (read back by csv-parse, a formula in a signer's name written inert), as a PDF report (read by
 * poppler, its first page rendered to test/artifacts/), and the evidence package as a ZIP whose
 * files `sha256sum -c` checks, whose sealed PDF pdfsig verifies, and whose audit chain is recomputed
 * here from the entries' content with an RFC 8785 library — never by the service's own code.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import canonicalize from "canonicalize";
import { parse } from "csv-parse/sync";
import { unzipSync } from "fflate";
import { type Deployment, REPO, startStandalone } from "./support/deployments.js";
import { embeddedSigner, embeddedSigningLink } from "./support/embedded-signer.js";
import { call, eventually } from "./support/http.js";
import { makeDocx } from "./support/office-documents.js";
import { expectDocumented } from "./support/openapi.js";
import { pdfsig, pdfText } from "./support/pdf-tools.js";

const run = promisify(execFile);
const ARTIFACTS = join(REPO, "test", "artifacts");
const FORMULA_NAME = '=HYPERLINK("http://evil.example","Ada")';

let deployment: Deployment;
let gateway: string;
let key: { secret: string; accountId: string };

async function download(
  path: string,
  secret = key.secret,
): Promise<{ status: number; headers: Headers; bytes: Uint8Array }> {
  const res = await fetch(`${gateway}/api/v1${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The entries' own chain, checked as a stranger would: canonical JSON, SHA-256, each link. */
function chainHolds(entries: Record<string, unknown>[]): boolean {
  return entries.every((entry, i) => {
    const { hash, ...content } = entry;
    const own = createHash("sha256")
      .update(canonicalize(content) as string)
      .digest("hex");
    return own === hash && content.previousHash === (i === 0 ? "" : entries[i - 1]?.hash);
  });
}

beforeAll(async () => {
  deployment = await startStandalone();
  gateway = deployment.gateways[0] as string;
  key = JSON.parse((await deployment.cli("keys", "create", "--name", "exports")).stdout) as typeof key;
});
afterAll(() => deployment?.destroy());

describe("a completed request", () => {
  let requestId: string;
  let signedDocumentId: string;

  beforeAll(async () => {
    const { request, signer, fields } = await embeddedSigner(gateway, key.secret, {
      title: "Lease / 2026",
      signerName: FORMULA_NAME,
    });
    requestId = request.id;
    const [signature = "", initials = ""] = fields;
    const signed = await signer.call("/sign/api/submit", {
      consent: true,
      values: {
        [signature]: { kind: "typed", text: "Ada Lovelace" },
        [initials]: { kind: "typed", text: "AL" },
      },
    });
    expect(signed.status).toBe(200);
    signedDocumentId = await eventually(async () => {
      const got = (await call(gateway, `/api/v1/signature-requests/${requestId}`, { key: key.secret }))
        .body as {
        status: string;
        signedDocumentId: string;
      };
      return got.status === "completed" ? got.signedDocumentId : undefined;
    }, 30_000);
  });

  test("the CSV has a row per audit entry with its hash, and a formula in a signer's name is written inert", async () => {
    const csv = await download(`/signature-requests/${requestId}/audit-trail/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get("content-disposition")).toContain("Lease - 2026 (audit trail).csv");
    const text = Buffer.from(csv.bytes).toString("utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows = parse(text, { bom: true, columns: true }) as Record<string, string>[];
    const trail = (
      await call(gateway, `/api/v1/signature-requests/${requestId}/audit-trail`, { key: key.secret })
    ).body as { items: { sequence: number; action: string; hash: string }[] };
    expect(rows.map((r) => [Number(r.sequence), r.action, r.hash])).toEqual(
      trail.items.map((e) => [e.sequence, e.action, e.hash]),
    );
    expect(rows.map((r) => r.action)).toEqual(
      expect.arrayContaining(["created", "sent", "signed", "completed"]),
    );
    const bySigner = rows.filter((r) => r.actor_type === "recipient");
    expect(bySigner.length).toBeGreaterThan(0);
    for (const row of bySigner) expect(row.actor_name).toBe(`'${FORMULA_NAME}`);
  });

  test("the PDF report lists every entry with its hash and says the chain holds", async () => {
    const report = await download(`/signature-requests/${requestId}/audit-trail/export?format=pdf`);
    expect(report.status).toBe(200);
    expect(report.headers.get("content-type")).toBe("application/pdf");
    const text = (await pdfText(report.bytes)).replace(/\s+/g, " ");
    expect(text).toContain("Audit trail");
    expect(text).toContain(`Request ID ${requestId}`);
    expect(text).toContain("intact");
    const trail = (
      await call(gateway, `/api/v1/signature-requests/${requestId}/audit-trail`, { key: key.secret })
    ).body as { items: { sequence: number; action: string; hash: string }[] };
    for (const entry of trail.items) {
      expect(text).toContain(`${entry.sequence}. ${entry.action}`);
      expect(text).toContain(entry.hash);
    }
    await mkdir(ARTIFACTS, { recursive: true });
    const pdf = join(ARTIFACTS, "audit-report.pdf");
    await writeFile(pdf, report.bytes);
    await run("pdftoppm", ["-png", "-r", "70", "-f", "1", "-l", "1", pdf, join(ARTIFACTS, "audit-report")]);
  });

  test("the evidence package holds everything, and sha256sum, pdfsig and an RFC 8785 library check it", async () => {
    const zip = await download(`/signature-requests/${requestId}/evidence-package`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get("content-type")).toBe("application/zip");
    const files = unzipSync(zip.bytes);
    const sealedName = Object.keys(files).find((name) => name.startsWith("sealed/")) as string;
    expect(Object.keys(files)).toEqual([
      "README.txt",
      "request.json",
      "originals/nda.pdf",
      sealedName,
      "audit-trail.json",
      "audit-trail.csv",
      "audit-trail.pdf",
      "SHA256SUMS",
    ]);

    const dir = await mkdtemp(join(tmpdir(), "evidence-"));
    try {
      for (const [name, bytes] of Object.entries(files)) {
        await mkdir(dirname(join(dir, name)), { recursive: true });
        await writeFile(join(dir, name), bytes);
      }
      const { stdout } = await run("sha256sum", ["-c", "SHA256SUMS"], { cwd: dir });
      expect(stdout.trim().split("\n")).toHaveLength(Object.keys(files).length - 1);
      expect(stdout).not.toMatch(/FAILED/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }

    const sealed = files[sealedName] as Uint8Array;
    const stored = await download(`/documents/${signedDocumentId}/download`);
    expect(Buffer.from(sealed).equals(Buffer.from(stored.bytes))).toBe(true);
    expect(await pdfsig(sealed)).toContain("Signature is Valid.");

    const trail = JSON.parse(Buffer.from(files["audit-trail.json"] as Uint8Array).toString("utf8")) as {
      verified: boolean;
      entries: Record<string, unknown>[];
    };
    expect(trail.verified).toBe(true);
    expect(trail.entries.map((e) => e.action)).toEqual(
      expect.arrayContaining(["created", "signed", "completed"]),
    );
    expect(chainHolds(trail.entries)).toBe(true);
    // The check is one that a change fails: an entry's details edited afterwards breaks it.
    const edited = structuredClone(trail.entries);
    (edited[1] as { details: Record<string, unknown> }).details = { edited: true };
    expect(chainHolds(edited)).toBe(false);

    const request = JSON.parse(Buffer.from(files["request.json"] as Uint8Array).toString("utf8"));
    expect(request).toMatchObject({ id: requestId, status: "completed", signedDocumentId });
    const readme = Buffer.from(files["README.txt"] as Uint8Array).toString("utf8");
    expect(readme).toContain("sha256sum -c SHA256SUMS");
    expect(readme).toContain(`pdfsig "${sealedName}"`);
  });

  test("the account's route family answers the same exports", async () => {
    for (const path of ["audit-trail/export?format=csv", "evidence-package"]) {
      const res = await fetch(
        `${gateway}/v1/accounts/${key.accountId}/signature-requests/${requestId}/${path}`,
        {
          headers: { authorization: `Bearer ${key.secret}` },
        },
      );
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });
});

test("a request not yet signed has a package without a seal, and says so", async () => {
  const { request } = await embeddedSigner(gateway, key.secret);
  const zip = await download(`/signature-requests/${request.id}/evidence-package`);
  expect(zip.status).toBe(200);
  const files = unzipSync(zip.bytes);
  expect(Object.keys(files).some((name) => name.startsWith("sealed/"))).toBe(false);
  expect(Buffer.from(files["README.txt"] as Uint8Array).toString("utf8")).toContain(
    "There is no seal yet: the request is not completed.",
  );
});

test("a request of a Word document packs the PDF signed in originals/ and the Word file it was made from in sources/, each in SHA256SUMS", async () => {
  const docx = makeDocx({ paragraphs: ["Statement of work", "Client: {{signature:Client}}"] });
  const uploaded = await call(gateway, "/api/v1/documents/upload?filename=SOW.docx", {
    key: key.secret,
    method: "POST",
    body: docx,
    headers: { "content-type": "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  });
  expect(uploaded.status).toBe(201);
  const created = await call(gateway, "/api/v1/signature-requests", {
    key: key.secret,
    method: "POST",
    json: {
      title: "SOW",
      documentIds: [(uploaded.body as { id: string }).id],
      textTags: true,
      recipients: [{ name: "Cleo Client", email: "cleo@example.com", role: "Client" }],
    },
  });
  expect(created.status).toBe(201);
  const zip = await download(`/signature-requests/${(created.body as { id: string }).id}/evidence-package`);
  const files = unzipSync(zip.bytes);
  expect(Object.keys(files).filter((name) => /^(originals|sources)\//.test(name))).toEqual([
    "originals/SOW.pdf",
    "sources/SOW.docx",
  ]);
  expect(Buffer.from(files["sources/SOW.docx"] as Uint8Array).equals(Buffer.from(docx))).toBe(true);
  const sums = Buffer.from(files.SHA256SUMS as Uint8Array).toString("utf8");
  expect(sums).toContain(`${createHash("sha256").update(docx).digest("hex")}  sources/SOW.docx`);
  expect(Buffer.from(files["README.txt"] as Uint8Array).toString("utf8")).toContain(
    "- sources/: the files uploaded",
  );
});

test("a workspace asking for many PDF reports at once is asked to come back past its share (429, Retry-After); another workspace's report is still drawn", async () => {
  // Eight at once through each of two keys of one workspace: within each key's own bound at the edge.
  const second = JSON.parse((await deployment.cli("keys", "create", "--name", "exports-2")).stdout) as {
    secret: string;
  };
  const other = JSON.parse((await deployment.cli("workspaces", "create", "--name", "Other")).stdout) as {
    id: string;
  };
  const otherKey = JSON.parse(
    (await deployment.cli("keys", "create", "--name", "other", "--workspace", other.id)).stdout,
  ) as { secret: string };
  const ours = (await embeddedSigningLink(gateway, key.secret)).request.id;
  const theirs = (await embeddedSigningLink(gateway, otherKey.secret)).request.id;
  const report = (requestId: string) => `/signature-requests/${requestId}/audit-trail/export?format=pdf`;
  const flood = [key.secret, second.secret].flatMap((secret) =>
    Array.from({ length: 8 }, () => download(report(ours), secret)),
  );
  await new Promise((r) => setTimeout(r, 50));
  const theirReport = await download(report(theirs), otherKey.secret);
  expect(theirReport.status).toBe(200);
  const answers = await Promise.all(flood);
  const refused = answers.filter((answer) => answer.status === 429);
  expect(refused.length).toBeGreaterThan(0);
  expect(Number(refused[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
  const problem = JSON.parse(Buffer.from(refused[0]?.bytes ?? []).toString("utf8"));
  expect(problem).toMatchObject({ code: "rate_limited", detail: expect.stringContaining("drawing process") });
  expectDocumented("get", "/api/v1/signature-requests/{requestId}/audit-trail/export", 429, problem);
  expect(answers.filter((answer) => answer.status !== 429).map((answer) => answer.status)).toEqual(
    Array(16 - refused.length).fill(200),
  );
}, 60_000);

test("an unknown request is a 404 problem, and an unknown format a 400, as the OpenAPI document says", async () => {
  const unknown = "00000000-0000-7000-8000-000000000000";
  for (const path of [
    `/signature-requests/${unknown}/audit-trail/export?format=csv`,
    `/signature-requests/${unknown}/audit-trail/export?format=pdf`,
    `/signature-requests/${unknown}/evidence-package`,
  ]) {
    const res = await call(gateway, `/api/v1${path}`, { key: key.secret });
    expect(res.status).toBe(404);
    expectDocumented("get", `/api/v1${path.split("?")[0]?.replace(unknown, "{requestId}")}`, 404, res.body);
  }
  const bad = await call(gateway, `/api/v1/signature-requests/${unknown}/audit-trail/export?format=xml`, {
    key: key.secret,
  });
  expect(bad.status).toBe(400);
  expectDocumented("get", "/api/v1/signature-requests/{requestId}/audit-trail/export", 400, bad.body);
});
