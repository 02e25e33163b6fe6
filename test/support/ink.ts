/**
 * What a reader sees, compared as shapes: a rendering's ink (pixels darker than the paper), cut to
 * its bounding box and brought to one size, so that a PDF rendered by poppler and the same text
 * rendered by Chromium can be compared whatever their sizes, positions and anti-aliasing.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PNG } from "pngjs";

const run = promisify(execFile);

export interface Ink {
  width: number;
  height: number;
  /** 1 where a pixel is ink. */
  cells: Uint8Array;
}

/** The ink of a PNG: pixels whose luminance (over white) is below the threshold. */
export function inkOf(png: Uint8Array, threshold = 150): Ink {
  const image = PNG.sync.read(Buffer.from(png));
  const cells = new Uint8Array(image.width * image.height);
  for (let i = 0; i < cells.length; i++) {
    const [r = 255, g = 255, b = 255, a = 255] = image.data.subarray(i * 4, i * 4 + 4);
    const over = (c: number) => 255 - ((255 - c) * a) / 255;
    const luminance = 0.299 * over(r) + 0.587 * over(g) + 0.114 * over(b);
    cells[i] = luminance < threshold ? 1 : 0;
  }
  return { width: image.width, height: image.height, cells };
}

/** The ink's bounding box, or undefined when there is none. */
export function inkBox(ink: Ink): { x: number; y: number; width: number; height: number } | undefined {
  let [left, top, right, bottom] = [ink.width, ink.height, -1, -1];
  for (let y = 0; y < ink.height; y++) {
    for (let x = 0; x < ink.width; x++) {
      if (!ink.cells[y * ink.width + x]) continue;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return right < 0 ? undefined : { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** The ink in its box, resampled to `width` × `height`: a cell is ink when most of its area is. */
function normalised(ink: Ink, width: number, height: number): Uint8Array {
  const box = inkBox(ink);
  const cells = new Uint8Array(width * height);
  if (!box) return cells;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [x0, x1] = [box.x + (x * box.width) / width, box.x + ((x + 1) * box.width) / width];
      const [y0, y1] = [box.y + (y * box.height) / height, box.y + ((y + 1) * box.height) / height];
      let inked = 0;
      let all = 0;
      for (let sy = Math.floor(y0); sy < Math.max(Math.floor(y0) + 1, Math.ceil(y1)); sy++) {
        for (let sx = Math.floor(x0); sx < Math.max(Math.floor(x0) + 1, Math.ceil(x1)); sx++) {
          inked += ink.cells[sy * ink.width + sx] ?? 0;
          all++;
        }
      }
      cells[y * width + x] = inked * 3 >= all ? 1 : 0;
    }
  }
  return cells;
}

/** Each ink cell grown by one in every direction: rasterisers differ by a pixel at edges. */
function grown(cells: Uint8Array, width: number, height: number): Uint8Array {
  const out = new Uint8Array(cells.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (!cells[y * width + x]) continue;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx >= 0 && ny >= 0 && nx < width && ny < height) out[ny * width + nx] = 1;
        }
      }
    }
  }
  return out;
}

export interface Likeness {
  /** The ink boxes' width-to-height ratios, one over the other (1 when alike). */
  aspect: number;
  /** Of the ink of each, the share that lies on (grown) ink of the other; the lower of the two. */
  overlap: number;
}

/** How alike two renderings' ink is, as shapes. */
export function likeness(a: Ink, b: Ink): Likeness {
  const [boxA, boxB] = [inkBox(a), inkBox(b)];
  if (!boxA || !boxB) return { aspect: 0, overlap: 0 };
  const ratio = (box: { width: number; height: number }) => box.width / box.height;
  const aspect = Math.min(ratio(boxA), ratio(boxB)) / Math.max(ratio(boxA), ratio(boxB));
  const height = 60;
  const width = Math.max(20, Math.round(height * ratio(boxA)));
  const [cellsA, cellsB] = [normalised(a, width, height), normalised(b, width, height)];
  const covered = (cells: Uint8Array, other: Uint8Array) => {
    const near = grown(other, width, height);
    let ink = 0;
    let on = 0;
    cells.forEach((cell, i) => {
      if (!cell) return;
      ink++;
      on += near[i] ?? 0;
    });
    return ink === 0 ? 0 : on / ink;
  };
  return { aspect, overlap: Math.min(covered(cellsA, cellsB), covered(cellsB, cellsA)) };
}

/**
 * A region of a PDF page as poppler renders it, at `dpi`: `box` in points from the top-left of the
 * page as a viewer shows it.
 */
export async function renderRegion(
  pdf: Uint8Array,
  page: number,
  box: { x: number; y: number; width: number; height: number },
  dpi = 288,
): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "render-"));
  try {
    await writeFile(join(dir, "document.pdf"), pdf);
    const px = (points: number) => String(Math.round((points * dpi) / 72));
    await run("pdftoppm", [
      ...["-png", "-r", String(dpi), "-f", String(page), "-l", String(page), "-singlefile"],
      ...["-x", px(box.x), "-y", px(box.y), "-W", px(box.width), "-H", px(box.height)],
      join(dir, "document.pdf"),
      join(dir, "region"),
    ]);
    return await readFile(join(dir, "region.png"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
