/**
 * An uploaded image made into a one-page PDF, in a job process of its own (image-page-worker.mjs):
 * pdf-lib decodes a PNG whole, so its size is checked from its header first (a few kilobytes of PNG
 * can say it holds billions of pixels).
 */
import { readFile, writeFile } from "node:fs/promises";
import { imagePage } from "@countersign/kit/image-page.js";
import { imageSize } from "image-size";

export interface ImagePageJob {
  input: string;
  type: "image/png" | "image/jpeg";
  output: string;
  maxPixels: number;
}

export type ImagePageResult = { ok: true } | { ok: false; message: string };

export async function runImagePageJob({
  input,
  type,
  output,
  maxPixels,
}: ImagePageJob): Promise<ImagePageResult> {
  const content = await readFile(input);
  let size: { width?: number; height?: number };
  try {
    size = imageSize(content);
  } catch {
    return { ok: false, message: "the image could not be read" };
  }
  const { width = 0, height = 0 } = size;
  if (width * height > maxPixels) {
    return {
      ok: false,
      message: `the image is ${width} × ${height} pixels: upload one of at most ${maxPixels / 1_000_000} megapixels`,
    };
  }
  try {
    await writeFile(output, await imagePage(content, type));
  } catch (err) {
    return { ok: false, message: `the image could not be read: ${(err as Error).message}` };
  }
  return { ok: true };
}
