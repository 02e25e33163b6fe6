/** subset-font ships no types: HarfBuzz's hb-subset, from WOFF2, WOFF or sfnt input to the format asked for. */
declare module "subset-font" {
  export default function subsetFont(
    font: Uint8Array,
    text: string | undefined,
    options?: {
      targetFormat?: "truetype" | "sfnt" | "woff" | "woff2";
      keepAllGlyphs?: boolean;
      noLayoutClosure?: boolean;
    },
  ): Promise<Buffer>;
}
