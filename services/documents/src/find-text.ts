/**
 * FindText: what is written in a stored document's text — its text tags, or the places of anchor
 * strings — found where the bytes are kept, so that no caller downloads a document to search it. The
 * stored bytes are spooled to a file no larger than an upload may be, and read by the PDF text
 * process (pdf-text.ts), bounded in pages, characters and time.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type {
  FindTextRequest,
  FindTextResponseSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import {
  type FieldViolation,
  formatBytes,
  spoolUpload,
  UploadTooLargeError,
  validationError,
} from "@countersign/kit";
import type { Documents } from "./documents.js";
import { type Anchor, type PdfTextReader, type TextSearch, unreadableText } from "./pdf-text.js";

export interface TextFinderDeps {
  documents: Documents;
  reader: PdfTextReader;
  /** The largest document stored: a stored object past it is not read. */
  maxUploadBytes: number;
  /** Where the stored bytes are spooled while they are read. */
  spoolDir: string;
}

/** The most places a search answers, and the most anchors and characters of one it takes. */
const MOST = { places: 1000, anchors: 1000, anchorCharacters: 1000 };

type Found = MessageInitShape<typeof FindTextResponseSchema>;

/** The search a request asks for, or every reason it cannot be made. */
function searchOf(req: FindTextRequest): TextSearch {
  const violations: FieldViolation[] = [];
  if (!Number.isInteger(req.limit) || req.limit < 1 || req.limit > MOST.places)
    violations.push({ path: "limit", message: `must be from 1 to ${MOST.places}` });
  let search: TextSearch | undefined;
  if (req.search.case === "textTags") search = { tags: true };
  else if (req.search.case === "anchors") {
    const anchors: Anchor[] = req.search.value.anchors.map(({ text, caseSensitive }) => ({
      text,
      caseSensitive,
    }));
    if (anchors.length > MOST.anchors)
      violations.push({ path: "anchors.anchors", message: `must be at most ${MOST.anchors}` });
    anchors.forEach(({ text }, i) => {
      if (text.length < 1 || text.length > MOST.anchorCharacters)
        violations.push({
          path: `anchors.anchors[${i}].text`,
          message: `must be 1 to ${MOST.anchorCharacters} characters`,
        });
    });
    search = { anchors };
  } else violations.push({ path: "search", message: "give text_tags or anchors" });
  if (violations.length > 0 || !search) throw validationError(violations);
  return search;
}

export class TextFinder {
  constructor(private readonly deps: TextFinderDeps) {}

  async find(req: FindTextRequest, signal?: AbortSignal): Promise<Found> {
    const search = searchOf(req);
    const { documents, reader, maxUploadBytes, spoolDir } = this.deps;
    const { document, source } = await documents.download(req.workspaceId, req.documentId);
    if (!("bytes" in source)) throw new Error("a download that accepts no URL answered one");
    const spooled = await spoolUpload(source.bytes, maxUploadBytes, spoolDir, { hash: false }).catch(
      (err: unknown) => {
        source.bytes.destroy();
        throw err instanceof UploadTooLargeError
          ? unreadableText(`it is larger than ${formatBytes(maxUploadBytes)}`)
          : err;
      },
    );
    try {
      if ("tags" in search) {
        const tags = await reader.tags(spooled.path, req.limit, req.workspaceId, signal);
        return { document, tags: tags.map(({ text, ...box }) => ({ text, box })) };
      }
      const places = await reader.anchors(spooled.path, search.anchors, req.limit, req.workspaceId, signal);
      return { document, anchors: places.map((boxes) => ({ boxes })) };
    } finally {
      await spooled.discard();
    }
  }
}
