/**
 * The verifier's process against a file made to multiply its work: a 20 MiB sealed PDF whose form
 * names its one seal from 150 fields. It answers, lists the seal once, reads the covered bytes once
 * (the process's peak memory says so: a copy per field was 3.5 GB, and stayed after the answer).
 */
import { readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { makeHeavyPagePdf } from "../../../test/support/pdfs.js";
import { makeFieldsShareSignature } from "../../../test/support/unsafe-pdfs.js";
import { DrawingProcess } from "../src/pdf/drawing-process.js";
import { addValidationRevision } from "../src/pdf/pades/long-term.js";
import { Seal } from "../src/pdf/seal.js";
import { generateSealP12 } from "../src/pdf/seal-certificate.js";
import { drawCompletedDocument } from "../src/pdf/sealed-document.js";

const MIB = 1024 * 1024;

/** The resident memory, now and at its peak, of this process's child running `script`, if one runs. */
async function childMemory(script: string): Promise<{ rss: number; peak: number } | undefined> {
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent !== process.pid || !(await readFile(`/proc/${pid}/cmdline`, "utf8")).includes(script))
        continue;
      const status = await readFile(`/proc/${pid}/status`, "utf8");
      const kib = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1]) * 1024;
      // A process ended but not yet reaped has no memory left to say.
      return status.includes("VmRSS") ? { rss: kib("VmRSS"), peak: kib("VmHWM") } : undefined;
    } catch {
      // The process ended while it was read.
    }
  }
  return undefined;
}

test("150 fields naming one seal of a 20 MiB file: one report, the bytes read once, little memory held after", async () => {
  const p12 = generateSealP12("Hostile verification seal", "pw");
  const seal = new Seal({ p12, password: "pw" });
  const drawn = await drawCompletedDocument(
    [{ id: "a", filename: "heavy.pdf", sha256: "0".repeat(64), bytes: await makeHeavyPagePdf(20 * MIB) }],
    [],
    new Map(),
    {
      requestId: "0192f5d8-0000-7000-8000-000000000000",
      title: "Heavy",
      completedAt: new Date(),
      recipients: [],
      sentBy: "Acme",
      audit: { entries: 1, headHash: "f".repeat(64) },
      test: false,
    },
    seal.room,
  );
  const sealed = (await seal.sign(drawn.bytes, addValidationRevision)).bytes;
  const hostile = await makeFieldsShareSignature(sealed, 150);
  expect(hostile.length).toBeGreaterThan(20 * MIB);

  const drawing = new DrawingProcess();
  try {
    const report = await drawing.verify("address:203.0.113.7", hostile);
    const memory = await childMemory("drawing-worker");
    // A copy of the covered bytes per field peaked at 3 GB; read once, the file is held a few times.
    expect(memory?.peak ?? 0).toBeLessThan(400 * MIB);
    expect(report.signatures).toHaveLength(1);
    expect(report.signatures[0]).toMatchObject({
      kind: "signature",
      valid: true,
      field: expect.stringContaining("and 150 other fields naming the same signature"),
    });
    // What it still holds after the answer: a copy per field left 3.5 GB resident until it was idle.
    expect(memory === undefined || memory.rss < 400 * MIB).toBe(true);
  } finally {
    drawing.close();
  }
}, 120_000);
