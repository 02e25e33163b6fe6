/**
 * What a phone must fetch before the signing page can draw anything: the scripts and style sheets
 * its HTML names and every module those scripts import statically, compressed as the gateway sends
 * them. pdf.js (134 KB compressed) and the @font-face rules of the sealed faces (65 KB as brotli) come after
 * the first paint, when a document opens and while the signer reads; bundled in, they made it 272 KB
 * and the page's largest paint 4.6 s on Lighthouse's slow 4G. (`npm test` builds the pages first.)
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { REPO } from "./support/deployments.js";

const KB = 1024;

/** The files one page fetches before its first paint, by their paths under its dist folder. */
async function blockingFiles(page: string): Promise<Map<string, number>> {
  const dist = join(REPO, "gateway/web/dist", page);
  const html = await readFile(join(dist, "index.html"), "utf8");
  const named = [
    ...html.matchAll(/<script[^>]*\bsrc="\/[^/]+\/([^"]+)"/g),
    ...html.matchAll(/<link[^>]*\brel="(?:stylesheet|modulepreload)"[^>]*\bhref="\/[^/]+\/([^"]+)"/g),
  ].map(([, path]) => path as string);
  const sizes = new Map<string, number>();
  const visit = async (path: string): Promise<void> => {
    if (sizes.has(path)) return;
    const bytes = await readFile(join(dist, path));
    sizes.set(path, gzipSync(bytes).length);
    if (!path.endsWith(".js")) return;
    // Static imports only (`import{x}from"./a.js"`, `import"./b.js"`); `import("./c.js")` comes later.
    const source = bytes.toString("utf8");
    for (const [, imported] of source.matchAll(
      /\bimport\s*(?:[\w$*{}\s,]+from\s*)?["']\.\/([^"']+\.js)["']/g,
    )) {
      await visit(join(path, "..", imported as string));
    }
  };
  for (const path of named) await visit(path);
  return sizes;
}

test("the signing page draws with at most 150 KB of compressed script and style, without pdf.js or the sealed faces", async () => {
  const files = await blockingFiles("sign");
  const total = [...files.values()].reduce((sum, size) => sum + size, 0);
  expect({ total: Math.round(total / KB), files: [...files.keys()] }).toEqual({
    total: expect.any(Number),
    files: expect.not.arrayContaining([expect.stringMatching(/pdf|face-rules/)]),
  });
  expect(total).toBeLessThanOrEqual(150 * KB);
});
