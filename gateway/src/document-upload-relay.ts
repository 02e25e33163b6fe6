/**
 * Uploads relayed to the documents service without encoding their bytes again. Connect's client
 * serialises each 1 MiB chunk message with protobuf-es and copies it once more into its envelope:
 * two copies of every byte, garbage that the gateway's heap holds until V8 next collects external
 * memory (37 MiB of growth against 25 in a relay measured apart, docs/benchmarks.md). Here a chunk
 * message is written as its envelope's prefix and field header, then the chunk's own bytes, on the
 * connection the balancer chose. On the wire it is the same Connect call: the service cannot tell.
 * The protocol's headers, end-of-stream message and errors are Connect's own helpers.
 */
import http2 from "node:http2";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import {
  createDeadlineSignal,
  createLinkedAbortController,
  getAbortSignalReason,
} from "@connectrpc/connect/protocol";
import {
  endStreamFlag,
  endStreamFromJson,
  requestHeader,
  validateResponse,
} from "@connectrpc/connect/protocol-connect";
import {
  DocumentsService,
  type UploadDocumentRequest,
  UploadDocumentRequestSchema,
  type UploadDocumentResponse,
  UploadDocumentResponseSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { type BalancedTransport, type CallOptions, inheritedOptions } from "@countersign/kit";

const METHOD = DocumentsService.method.uploadDocument;
const PATH = `/${DocumentsService.typeName}/${METHOD.name}`;
const CHUNK_FIELD = UploadDocumentRequestSchema.field.chunk.number;

/** The documents client with its uploads relayed on `transport`'s connections. */
export function withRelayedUploads(
  documents: Client<typeof DocumentsService>,
  transport: BalancedTransport,
  serviceToken?: string,
): Client<typeof DocumentsService> {
  const uploadDocument = async (
    input: AsyncIterable<UploadDocumentRequest>,
    options: CallOptions = {},
  ): Promise<UploadDocumentResponse> => {
    const { headers, timeoutMs, signal } = { ...inheritedOptions(), ...options };
    const deadline = createDeadlineSignal(timeoutMs);
    const abort = createLinkedAbortController(signal, deadline.signal);
    const header = Object.fromEntries(requestHeader(METHOD.methodKind, true, timeoutMs, headers, false));
    if (serviceToken) header.authorization = `Bearer ${serviceToken}`;
    // A replica that refused the call may be given it again only while none of the input is gone.
    let taken = false;
    const messages = (async function* () {
      for await (const message of input) {
        taken = true;
        yield message;
      }
    })();
    try {
      return await transport.onConnection(
        async (connection) => {
          const stream = await connection.request(PATH, header);
          return exchange(stream, messages, abort.signal, () => connection.read(stream));
        },
        () => !taken,
        abort.signal,
      );
    } finally {
      deadline.cleanup();
    }
  };
  return { ...documents, uploadDocument } as Client<typeof DocumentsService>;
}

/** The 5-byte envelope prefix of a message of `length` bytes (flags 0: not compressed, not the end). */
function envelopePrefix(length: number): Uint8Array {
  const prefix = new Uint8Array(5);
  new DataView(prefix.buffer).setUint32(1, length);
  return prefix;
}

/** One message as the pieces to write: the chunk's bytes themselves, after a prefix of a few bytes. */
function framed(message: UploadDocumentRequest): Uint8Array[] {
  if (message.part.case !== "chunk") {
    const bytes = toBinary(UploadDocumentRequestSchema, message);
    return [envelopePrefix(bytes.length), bytes];
  }
  const chunk = message.part.value;
  const field = new BinaryWriter().tag(CHUNK_FIELD, WireType.LengthDelimited).uint32(chunk.length).finish();
  return [Buffer.concat([envelopePrefix(field.length + chunk.length), field]), chunk];
}

/**
 * Writes the messages while reading the answer. The service may answer before it has read
 * everything (a file over the limit, a workspace that does not exist): writing then stops, and its
 * answer is the call's. A failure of the input (the caller's own body) cancels the call and is
 * what the caller gets.
 */
async function exchange(
  stream: http2.ClientHttp2Stream,
  input: AsyncIterable<UploadDocumentRequest>,
  signal: AbortSignal,
  read: () => void,
): Promise<UploadDocumentResponse> {
  const cancel = () => stream.close(http2.constants.NGHTTP2_CANCEL);
  if (signal.aborted) {
    cancel();
    throw getAbortSignalReason(signal);
  }
  signal.addEventListener("abort", cancel);
  const answer = readAnswer(stream, read);
  let answered = false;
  const settled = answer.then(
    () => {
      answered = true;
    },
    () => {
      answered = true;
    },
  );
  try {
    try {
      for await (const message of input) {
        if (answered) break;
        for (const piece of framed(message)) {
          if (!stream.write(piece)) await Promise.race([waitForDrain(stream), settled]);
        }
      }
      // Answered early, the service reads no more: the rest of the request is called off.
      if (answered) cancel();
      else stream.end();
    } catch (err) {
      if (signal.aborted) throw getAbortSignalReason(signal);
      if (answered) return await answer;
      cancel();
      answer.catch(() => {});
      throw err;
    }
    try {
      return await answer;
    } catch (err) {
      throw signal.aborted ? getAbortSignalReason(signal) : err;
    }
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

function waitForDrain(stream: http2.ClientHttp2Stream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      stream.off("drain", done);
      stream.off("close", done);
      resolve();
    };
    stream.on("drain", done);
    stream.on("close", done);
  });
}

/** The call's one answer, or the error its end-of-stream message carries. */
function readAnswer(stream: http2.ClientHttp2Stream, read: () => void): Promise<UploadDocumentResponse> {
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    stream.on("response", (headers) => {
      try {
        const status = Number(headers[":status"]);
        const flat = new Headers();
        for (const [name, value] of Object.entries(headers)) {
          if (!name.startsWith(":") && value !== undefined) flat.set(name, String(value));
        }
        validateResponse(METHOD.methodKind, true, status, flat);
      } catch (err) {
        reject(err);
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }
    });
    stream.on("data", (piece: Buffer) => {
      pieces.push(piece);
      read();
    });
    stream.on("end", () => {
      try {
        resolve(parseAnswer(Buffer.concat(pieces)));
      } catch (err) {
        reject(err);
      }
    });
    // A stream reset or a connection lost: the balancer tells an outage (a replica killed mid-call) from the rest.
    stream.on("error", reject);
    stream.on("close", () =>
      reject(new ConnectError("the documents service closed the upload without an answer", Code.Unavailable)),
    );
  });
}

function parseAnswer(body: Buffer): UploadDocumentResponse {
  let response: UploadDocumentResponse | undefined;
  for (let at = 0; at < body.length; ) {
    if (body.length - at < 5) throw brokenOff();
    const flags = body[at] as number;
    const length = body.readUInt32BE(at + 1);
    const data = body.subarray(at + 5, at + 5 + length);
    if (data.length < length) throw brokenOff();
    at += 5 + length;
    if ((flags & endStreamFlag) === endStreamFlag) {
      const { error } = endStreamFromJson(data);
      if (error) throw error;
      if (!response) throw new ConnectError("the upload's answer has no message", Code.Unimplemented);
      return response;
    }
    response = fromBinary(UploadDocumentResponseSchema, data);
  }
  throw brokenOff();
}

/**
 * An answer that stops before its end-of-stream message: the stream was cut (a replica killed or
 * reset mid-call, which Node may end like a finished stream), an outage rather than a fault.
 */
function brokenOff(): ConnectError {
  return new ConnectError("the documents service's answer to the upload broke off", Code.Unavailable);
}
