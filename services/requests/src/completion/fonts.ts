/**
 * The fonts drawn onto completed PDFs, shipped as npm packages: Caveat, a handwriting face, for
 * typed signatures (the signing page previews with the same one), and DejaVu Sans for everything
 * else, since PDF's standard fonts cannot write most names outside Western Europe.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

export interface FontFiles {
  handwriting: Uint8Array;
  regular: Uint8Array;
  bold: Uint8Array;
}

let loaded: Promise<FontFiles> | undefined;

export function fontFiles(): Promise<FontFiles> {
  loaded ??= (async () => {
    const [handwriting, regular, bold] = await Promise.all([
      readFile(require.resolve("@fontsource/caveat/files/caveat-latin-400-normal.woff")),
      readFile(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
      readFile(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
    ]);
    return { handwriting, regular, bold };
  })();
  return loaded;
}
