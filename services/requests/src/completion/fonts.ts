/**
 * The fonts drawn onto completed PDFs. PDF's standard fonts need nothing embedded and write
 * Western European text; DejaVu Sans (an npm package) is embedded only when a name or value needs
 * more. Caveat (the full TTF, as Expo packages it), a handwriting face, draws typed signatures, as the
 * signing page previews them.
 * Embedding and subsetting a font is the dearest part of completing a request, hence the choice.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { type PDFDocument, type PDFFont, StandardFonts } from "pdf-lib";

const require = createRequire(import.meta.url);

const FILES = {
  handwriting: "@expo-google-fonts/caveat/400Regular/Caveat_400Regular.ttf",
  regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf",
  bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf",
};

const files = new Map<keyof typeof FILES, Promise<Buffer>>();

function fontFile(name: keyof typeof FILES): Promise<Buffer> {
  let file = files.get(name);
  if (!file) {
    file = readFile(require.resolve(FILES[name]));
    files.set(name, file);
  }
  return file;
}

export interface TextFonts {
  regular: PDFFont;
  bold: PDFFont;
}

/** Whether every character of every text is one `font` can write. */
export function writes(font: PDFFont, texts: string[]): boolean {
  const has = new Set(font.getCharacterSet());
  return texts.every((text) => [...text].every((c) => /\s/.test(c) || has.has(c.codePointAt(0) as number)));
}

/**
 * fontkit as pdf-lib uses it, but parsing each font file once per process: a parsed font keeps
 * its tables and layout caches, which would otherwise be built again for every document.
 */
const parsed = new Map<Uint8Array, ReturnType<typeof fontkit.create>>();
const sharedFontkit: typeof fontkit = {
  ...fontkit,
  create(data, postscriptName) {
    const key = data as Uint8Array;
    let font = parsed.get(key);
    if (!font) {
      font = fontkit.create(data, postscriptName);
      parsed.set(key, font);
    }
    return font;
  },
};

/** Fonts embedded into one document, each at most once, the cheapest that writes what it must. */
export class DocumentFonts {
  private readonly embedded = new Map<string, Promise<PDFFont>>();

  constructor(private readonly doc: PDFDocument) {
    doc.registerFontkit(sharedFontkit);
  }

  private embed(key: string, load: () => Promise<PDFFont>): Promise<PDFFont> {
    let font = this.embedded.get(key);
    if (!font) {
      font = load();
      this.embedded.set(key, font);
    }
    return font;
  }

  private standard(name: StandardFonts): Promise<PDFFont> {
    return this.embed(name, () => this.doc.embedFont(name));
  }

  private file(name: keyof typeof FILES): Promise<PDFFont> {
    return this.embed(name, async () => this.doc.embedFont(await fontFile(name), { subset: true }));
  }

  /** A regular and a bold font that write every one of `texts`. */
  async textFonts(texts: string[]): Promise<TextFonts> {
    const regular = await this.standard(StandardFonts.Helvetica);
    if (writes(regular, texts)) return { regular, bold: await this.standard(StandardFonts.HelveticaBold) };
    return { regular: await this.file("regular"), bold: await this.file("bold") };
  }

  handwriting(): Promise<PDFFont> {
    return this.file("handwriting");
  }

  /** ZapfDingbats, for the tick of a checked box. */
  symbols(): Promise<PDFFont> {
    return this.standard(StandardFonts.ZapfDingbats);
  }
}
