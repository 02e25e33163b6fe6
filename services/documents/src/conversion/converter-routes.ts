/**
 * ConverterService: a file received into the spool, converted there by this process's
 * LocalConverter, the PDF streamed back. The file is counted against the upload limit on its way in.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { Code } from "@connectrpc/connect";
import {
  ConverterService,
  SourceFormat,
} from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import {
  inChunksOf,
  problemError,
  STREAM_CHUNK_BYTES,
  spoolUpload,
  UploadTooLargeError,
  validationError,
} from "@countersign/kit";
import { headerAndChunks } from "../stream-parts.js";
import { madeTooLarge } from "./document-converter.js";
import type { LocalConverter } from "./local-converter.js";
import { type KnownSourceFormat, SOURCE_FORMATS } from "./source-formats.js";

function isKnown(format: SourceFormat): format is KnownSourceFormat {
  return format !== SourceFormat.UNSPECIFIED && format in SOURCE_FORMATS;
}

export function converterRoutes(
  converter: LocalConverter,
  { spoolDir, maxUploadBytes }: { spoolDir: string; maxUploadBytes: number },
) {
  const impl: ServiceImpl<typeof ConverterService> = {
    async *convertDocument(requests, context) {
      const { header, chunks } = await headerAndChunks(requests);
      if (!header || !isKnown(header.format))
        throw validationError([{ path: "header.format", message: "must name a format the converter reads" }]);
      if (header.maxPages < 0)
        throw validationError([{ path: "header.maxPages", message: "must be 0 or more" }]);
      const spooled = await spoolUpload(chunks, maxUploadBytes, spoolDir, { hash: false }).catch(
        (err: unknown) => {
          throw err instanceof UploadTooLargeError
            ? problemError("payload_too_large", err.message, Code.ResourceExhausted)
            : err;
        },
      );
      try {
        if (header.sizeBytes !== 0n && BigInt(spooled.sizeBytes) !== header.sizeBytes)
          throw validationError([
            {
              path: "chunk",
              message: `the file is ${spooled.sizeBytes} bytes, not the ${header.sizeBytes} announced`,
            },
          ]);
        // Beside the spooled file, so that it goes with it.
        const output = join(dirname(spooled.path), "converted.pdf");
        await converter.convert(spooled.path, header.format, output, header.maxPages, {
          party: header.workspaceId,
          signal: context.signal,
        });
        const { size } = await stat(output);
        if (size > maxUploadBytes) throw madeTooLarge(size, maxUploadBytes);
        yield { part: { case: "header", value: { sizeBytes: BigInt(size) } } };
        for await (const chunk of inChunksOf(createReadStream(output, { highWaterMark: STREAM_CHUNK_BYTES })))
          yield { part: { case: "chunk", value: chunk } };
      } finally {
        await spooled.discard();
      }
    },
  };
  return (router: ConnectRouter) => router.service(ConverterService, impl);
}
