import { deflateSync } from "node:zlib";
import { makePdf } from "../../../test/support/pdfs.js";
import { makePng } from "../../../test/support/pngs.js";
import { DrawingProcess } from "../src/completion/drawing-process.js";
import type { SealRoom } from "../src/completion/seal.js";
import { readDrawnSignature } from "../src/drawn-signature.js";
import type { StoredValue } from "../src/field-values.js";

const details = {
  requestId: "0192f5d8-0000-7000-8000-000000000000",
  title: "Lease",
  completedAt: new Date("2026-11-26T10:00:00Z"),
  recipients: [],
  sentBy: "ada@example.com",
  audit: { entries: 3, headHash: "f".repeat(64) },
};
const seal: SealRoom = { commonName: "Test seal", contentsBytes: 12_288, level: "B-B" };

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
    const drawn = await drawing.draw([await original()], fields, values, details, seal);
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
      drawing.draw([await original(400)], [fieldAt("f0", 100)], typed, details, seal),
    ).rejects.toThrow("drawing the completed PDF took longer than 0.03 s");
  } finally {
    drawing.close();
  }
  const roomy = new DrawingProcess();
  try {
    const drawn = await roomy.draw([await original(1)], [fieldAt("f0", 100)], typed, details, seal);
    expect(drawn.bytes.length).toBeGreaterThan(1000);
  } finally {
    roomy.close();
  }
});
