/**
 * Conversions made by the converter deployment (CONVERTER_ADDR): the file streamed to it in chunks,
 * the PDF streamed back into `output`. Its refusals arrive as the ConnectErrors it raised.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  type ConvertDocumentRequest,
  ConvertDocumentRequestSchema,
  type ConverterService,
  type ConvertHeaderSchema,
} from "@countersign/gen/countersign/documents/v1/converter_service_pb.js";
import { inChunksOf, STREAM_CHUNK_BYTES } from "@countersign/kit";
import { writeToFile } from "@countersign/kit/file-writer.js";
import type { ConversionCall, DocumentConverter } from "./document-converter.js";
import type { KnownSourceFormat } from "./source-formats.js";

export class RemoteConverter implements DocumentConverter {
  constructor(private readonly client: Client<typeof ConverterService>) {}

  async convert(
    input: string,
    format: KnownSourceFormat,
    output: string,
    maxPages: number,
    { party, signal }: ConversionCall,
  ): Promise<void> {
    const { size } = await stat(input);
    const header = { format, sizeBytes: BigInt(size), maxPages, workspaceId: party };
    const answers = this.client.convertDocument(requests(input, header), { signal });
    const iterator = answers[Symbol.asyncIterator]();
    try {
      const first = await iterator.next();
      if (first.done || first.value.part.case !== "header")
        throw new ConnectError("the converter answered without a header", Code.Internal);
      const expected = Number(first.value.part.value.sizeBytes);
      let received = 0;
      async function* chunks(): AsyncGenerator<Uint8Array> {
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          if (next.value.part.case !== "chunk")
            throw new ConnectError("the converter sent a second header", Code.Internal);
          received += next.value.part.value.length;
          if (received > expected)
            throw new ConnectError("the converter sent more than the PDF's length", Code.Internal);
          yield next.value.part.value;
        }
      }
      await writeToFile(chunks(), output);
      if (received !== expected)
        throw new ConnectError(
          `the converter sent ${received} of the PDF's ${expected} bytes`,
          Code.Internal,
        );
    } finally {
      // A stream left half-read would hold the call open until the converter gave up on it.
      await iterator.return?.();
    }
  }

  async close(): Promise<void> {}
}

async function* requests(
  input: string,
  header: MessageInitShape<typeof ConvertHeaderSchema>,
): AsyncGenerator<ConvertDocumentRequest> {
  yield create(ConvertDocumentRequestSchema, { part: { case: "header", value: header } });
  for await (const chunk of inChunksOf(createReadStream(input, { highWaterMark: STREAM_CHUNK_BYTES }))) {
    yield create(ConvertDocumentRequestSchema, { part: { case: "chunk", value: chunk } });
  }
}
