/**
 * The file inside an upload's body — a multipart/form-data field `file`, or a raw application/pdf
 * body with `?filename=` — as a stream that is never held whole. A body that is malformed or ends
 * early is the client's fault: it becomes a 400 wherever it is noticed (busboy, the file stream, the
 * request itself) and never an unhandled stream error, which would end the process for everybody.
 */
import type { Readable } from "node:stream";
import { formatBytes, uploadBytesRead } from "@countersign/kit";
import busboy from "busboy";
import type { Request, Response } from "express";
import { RAW_UPLOAD_TYPES } from "./contract/documents.js";
import { ApiProblem } from "./problems.js";

export interface UploadedFile {
  filename: string;
  contentType: string;
  bytes: AsyncIterable<Uint8Array>;
  /** The file's exact length, when the request announced it before its bytes (a raw body's Content-Length). */
  sizeBytes?: number;
  /** Why the body could not be read, once that is known. */
  failure(): ApiProblem | undefined;
}

/** Media types that upload routes read as streams. */
export const UPLOAD_TYPES = ["multipart/form-data", ...RAW_UPLOAD_TYPES];

/** What an upload route says to a body of another type, before routing or in the route. */
export function notAnUpload(): ApiProblem {
  return new ApiProblem(
    "unsupported_media_type",
    'upload a PDF (or a DOCX, ODT, RTF, PNG or JPEG file) as multipart/form-data with a "file" field, or as a raw body with its Content-Type (application/pdf, …) and ?filename=',
  );
}

/** Room for multipart boundaries and headers on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** Watches a body for the ways it can fail and keeps the first one as a 400. */
class BodyFailure {
  private problem: ApiProblem | undefined;

  note(why: string): ApiProblem {
    this.problem ??= new ApiProblem("invalid_request", why);
    return this.problem;
  }

  get(): ApiProblem | undefined {
    return this.problem;
  }

  /** The stream's bytes; its errors are listened for at once, so none goes unhandled. */
  guard(stream: Readable, why: string): AsyncIterable<Uint8Array> {
    stream.on("error", () => this.note(why));
    const note = (why: string) => this.note(why);
    return (async function* () {
      try {
        for await (const chunk of stream) {
          uploadBytesRead((chunk as Uint8Array).length);
          yield chunk as Uint8Array;
        }
      } catch {
        throw note(why);
      }
    })();
  }
}

/** `filename` names a raw PDF body; a multipart body names its file itself. */
export function readUpload(
  req: Request,
  res: Response,
  maxUploadBytes: number,
  filename = "document.pdf",
): Promise<UploadedFile> {
  const encoding = (req.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "identity") {
    throw new ApiProblem(
      "unsupported_media_type",
      "send uploads without Content-Encoding: PDF files are compressed inside already",
    );
  }
  const declared = Number(req.get("content-length") ?? Number.NaN);
  if (declared > maxUploadBytes + MULTIPART_OVERHEAD_BYTES) {
    throw new ApiProblem("payload_too_large", `the file is larger than ${formatBytes(maxUploadBytes)}`);
  }
  res.locals.bodyStreaming = true;
  const failure = new BodyFailure();
  const endedEarly = "the request body ended before it was complete";
  req.on("error", () => failure.note(endedEarly));
  const raw = req.is([...RAW_UPLOAD_TYPES]);
  if (raw) {
    return Promise.resolve({
      filename,
      contentType: raw,
      // Node's parser ends a body at its Content-Length and fails one that ends short of it.
      sizeBytes: Number.isSafeInteger(declared) && declared > 0 ? declared : undefined,
      bytes: failure.guard(req, endedEarly),
      failure: () => failure.get(),
    });
  }
  if (!req.is("multipart/form-data")) throw notAnUpload();
  return readMultipartFile(req, failure, endedEarly);
}

function readMultipartFile(req: Request, failure: BodyFailure, endedEarly: string): Promise<UploadedFile> {
  let form: busboy.Busboy;
  try {
    form = busboy({
      headers: req.headers,
      defParamCharset: "utf8",
      limits: { files: 1, fields: 20, fieldSize: 1024 },
    });
  } catch {
    throw new ApiProblem(
      "invalid_request",
      'a multipart body needs a boundary: "Content-Type: multipart/form-data; boundary=…"',
    );
  }
  const malformed = "the multipart body is malformed or ends before its closing boundary";
  return new Promise((resolve, reject) => {
    let found = false;
    form.on("file", (field, bytes, info) => {
      if (field !== "file" || found) {
        bytes.on("error", () => failure.note(malformed));
        bytes.resume();
        return;
      }
      found = true;
      resolve({
        filename: browserFilename(info.filename) || "document.pdf",
        contentType: info.mimeType,
        bytes: failure.guard(bytes, malformed),
        failure: () => failure.get(),
      });
    });
    form.on("error", () => reject(failure.note(malformed)));
    // A pipe does not pass on that its source was cut off: busboy would wait for the rest for ever.
    req.once("close", () => {
      if (req.complete) return;
      const problem = failure.note(endedEarly);
      form.destroy(problem);
      reject(problem);
    });
    form.on("close", () => {
      if (!found) {
        reject(
          failure.get() ??
            new ApiProblem("validation_failed", "no file in the upload", [
              { path: "file", message: "is required" },
            ]),
        );
      }
    });
    req.pipe(form);
  });
}

/** Browsers (and fetch's FormData) send `"`, CR and LF in a multipart file name as %22, %0D, %0A. */
function browserFilename(name: string | undefined): string {
  return (name ?? "").replace(/%22/g, '"').replace(/%0D/gi, "\r").replace(/%0A/gi, "\n");
}

/** A small upload's bytes, read whole: a file longer than `maxBytes` is refused as soon as it is. */
export async function readWhole(file: UploadedFile, maxBytes: number): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of file.bytes) {
    length += chunk.length;
    if (length > maxBytes)
      throw new ApiProblem("payload_too_large", `the file is larger than ${formatBytes(maxBytes)}`);
    chunks.push(chunk);
  }
  const failure = file.failure();
  if (failure) throw failure;
  return Buffer.concat(chunks, length);
}
