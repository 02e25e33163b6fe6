/** Streams of a header then chunks (uploads, conversions) split into the two. */
import { uploadBytesRead, validationError } from "@countersign/kit";

type Part<Header> =
  | { case: "header"; value: Header }
  | { case: "chunk"; value: Uint8Array }
  | { case: undefined; value?: undefined };

/** The first message's header (undefined when it is not one) and the chunks after it. */
export async function headerAndChunks<Header>(
  messages: AsyncIterable<{ part: Part<Header> }>,
): Promise<{ header: Header | undefined; chunks: AsyncGenerator<Uint8Array> }> {
  const iterator = messages[Symbol.asyncIterator]();
  const first = await iterator.next();
  const header = !first.done && first.value.part.case === "header" ? first.value.part.value : undefined;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      if (next.value.part.case !== "chunk")
        throw validationError([{ path: "header", message: "only the first message may be a header" }]);
      uploadBytesRead(next.value.part.value.length);
      yield next.value.part.value;
    }
  }
  return { header, chunks: chunks() };
}
