import { deflateSync } from "node:zlib";
import { Code, ConnectError } from "@connectrpc/connect";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import { makePdf } from "../../../test/support/pdfs.js";
import { makePng } from "../../../test/support/pngs.js";
import type { StoredValue } from "../src/core/field-values.js";
import { DrawingProcess } from "../src/pdf/drawing-process.js";
import type { AuditReportFacts } from "../src/pdf/layout/audit-report.js";
import type { SealRoom } from "../src/pdf/seal.js";
import { readDrawnSignature } from "../src/signing/drawn-signature.js";

const details = {
  requestId: "0192f5d8-0000-7000-8000-000000000000",
  title: "Lease",
  completedAt: new Date("2026-11-26T10:00:00Z"),
  recipients: [],
  sentBy: "ada@example.com",
  audit: { entries: 3, headHash: "f".repeat(64) },
  test: false,
};
const seal: SealRoom = { commonName: "Test seal", contentsBytes: 12_288, level: "B-B" };
const WORKSPACE = "0192f5d8-0000-7000-8000-0000000000aa";

function fieldAt(id: string, y: number) {
  return {
    id,
    type: "signature",
    recipientId: "r",
    documentId: "d",
    page: 1,
    x: 50,
    y,
    width: 150,
    height: 40,
    required: true,
    label: "",
  };
}

async function original(pages = 1) {
  return { id: "d", filename: "lease.pdf", sha256: "0".repeat(64), bytes: await makePdf(pages) };
}

test("every drawing the submit check accepts is drawn onto the page: grey, palette, interlaced and RGBA", async () => {
  const interlaced = [2 * 3, 2 * 3, 1 * 5, 3 * 4, 2 * 8, 5 * 7, 4 * 14].reduce((a, b) => a + b, 0);
  const drawings = [
    makePng({ width: 300, height: 100 }),
    makePng({ width: 33, height: 7, colour: 0, depth: 1 }),
    makePng({ width: 10, height: 3, colour: 3, depth: 4, before: [["PLTE", Buffer.alloc(6)]] }),
    makePng({ width: 13, height: 9, colour: 0, interlace: 1, idat: deflateSync(Buffer.alloc(interlaced)) }),
  ];
  for (const png of drawings) expect(await readDrawnSignature(png)).toEqual({ pixels: expect.any(Number) });
  const fields = drawings.map((_, i) => fieldAt(`f${i}`, 100 + i * 60));
  const values = new Map<string, StoredValue>(
    drawings.map((png, i) => [`f${i}`, { kind: "drawn", png: png.toString("base64") }]),
  );
  const drawing = new DrawingProcess();
  try {
    const drawn = await drawing.draw(WORKSPACE, [await original()], fields, values, details, seal);
    expect(Buffer.from(drawn.bytes).subarray(0, 5).toString()).toBe("%PDF-");
    expect(Buffer.from(drawn.bytes).toString("latin1")).toMatch(/\/ByteRange/);
    expect(drawn.signedPagesSha256).toMatch(/^[0-9a-f]{64}$/);
  } finally {
    drawing.close();
  }
});

test("a drawing past its time limit fails with the limit in words; the next one is drawn", async () => {
  const drawing = new DrawingProcess({ timeoutMs: 30, heapMb: 512 });
  const typed = new Map<string, StoredValue>([["f0", { kind: "typed", text: "Ada Lovelace" }]]);
  try {
    await expect(
      drawing.draw(WORKSPACE, [await original(400)], [fieldAt("f0", 100)], typed, details, seal),
    ).rejects.toThrow("drawing the completed PDF took longer than 0.03 s");
  } finally {
    drawing.close();
  }
  const roomy = new DrawingProcess();
  try {
    const drawn = await roomy.draw(
      WORKSPACE,
      [await original(1)],
      [fieldAt("f0", 100)],
      typed,
      details,
      seal,
    );
    expect(drawn.bytes.length).toBeGreaterThan(1000);
  } finally {
    roomy.close();
  }
});

function reportFacts(title: string): AuditReportFacts {
  return {
    requestId: "0192f5d8-0000-7000-8000-000000000000",
    title,
    status: "in_progress",
    createdAt: new Date("2026-11-26T10:00:00Z"),
    recipients: [{ name: "Ada", email: "ada@example.com", kind: "signer", status: "sent" }],
    entries: [],
    verified: true,
    drawnAt: new Date("2026-11-26T11:00:00Z"),
  };
}

/** What became of a drawing: "drawn", or the refusal's code and Retry-After seconds. */
function outcome(drawn: Promise<unknown>, done: string[], name: string): Promise<string> {
  return drawn.then(
    () => {
      done.push(name);
      return "drawn";
    },
    (err: unknown) => {
      const refused = ConnectError.from(err);
      return `${Code[refused.code]} ${refused.findDetails(RetryAfterSchema)[0]?.seconds ?? "-"}`;
    },
  );
}

test("one workspace's many drawings wait behind their own: another workspace's is drawn next, and past its share the first is asked to come back while background work still waits its turn", async () => {
  const drawing = new DrawingProcess();
  const [a, b] = ["workspace-a", "workspace-b"];
  const done: string[] = [];
  try {
    // a1 is drawn at once (the process starting holds it a while); a2 to a5 wait; a6 is past a's share.
    const flood = ["a1", "a2", "a3", "a4", "a5", "a6"].map((name) =>
      outcome(drawing.auditReport(a, reportFacts(name)), done, name),
    );
    const certificate = outcome(drawing.pagesFrom(a, await makePdf(2), 1), done, "a-retention");
    const other = outcome(drawing.auditReport(b, reportFacts("b1")), done, "b1");
    expect(await other).toBe("drawn");
    expect(await Promise.all(flood)).toEqual([...Array(5).fill("drawn"), "ResourceExhausted 5"]);
    expect(await certificate).toBe("drawn");
    expect(done.slice(0, 2)).toEqual(["a1", "b1"]);
    expect(done).toHaveLength(7);
  } finally {
    drawing.close();
  }
});

test("a caller that goes away while its drawing waits gives its place up; closing fails what still waits", async () => {
  const drawing = new DrawingProcess();
  try {
    const first = drawing.auditReport("workspace-a", reportFacts("first"));
    const caller = new AbortController();
    const gone = drawing.auditReport("workspace-a", reportFacts("gone"), caller.signal);
    caller.abort(new Error("the caller went away"));
    await expect(gone).rejects.toThrow("the caller went away");
    expect(await first).toBeInstanceOf(Uint8Array);
    const running = drawing.auditReport("workspace-a", reportFacts("running"));
    const waiting = drawing.auditReport("workspace-b", reportFacts("waiting"));
    drawing.close();
    await expect(running).rejects.toThrow("the job process was closed");
    // Not started in a new child after the close: the service is stopping.
    await expect(waiting).rejects.toThrow("the drawing process was closed");
  } finally {
    drawing.close();
  }
});
