/**
 * Uploads relayed without re-encoding are the same Connect call as the client's: the bytes arrive
 * whole, with the service token and the request id; the service's errors arrive with their
 * details; a caller's failing body or deadline ends the call at both ends; a replica that refuses
 * connections is passed over.
 */
import { createHash, randomBytes } from "node:crypto";
import http2 from "node:http2";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  DocumentSchema,
  DocumentsService,
  type UploadDocumentRequest,
  UploadDocumentRequestSchema,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { ValidationErrorsSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  createLogger,
  createRpcMetrics,
  HealthState,
  inChunksOf,
  networkTransport,
  operatorOnly,
  REQUEST_ID_HEADER,
  type RunningServer,
  serviceClient,
  startServiceServer,
  validationError,
} from "@countersign/kit";
import { withRelayedUploads } from "../src/document-upload-relay.js";

const TOKEN = "relay-test-token";

interface Seen {
  requestIds: string[];
  ended: string[];
}

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

type Behaviour = "store" | "refuse" | "stall";

async function startDocuments(behaviour: Behaviour, seen: Seen): Promise<RunningServer> {
  const server = await startServiceServer({
    routes: [
      (router) =>
        router.service(DocumentsService, {
          async uploadDocument(requests, context) {
            seen.requestIds.push(context.requestHeader.get(REQUEST_ID_HEADER) ?? "");
            const hash = createHash("sha256");
            let size = 0;
            let filename = "";
            try {
              for await (const request of requests) {
                if (request.part.case === "header") {
                  filename = request.part.value.filename;
                  if (behaviour === "refuse") {
                    throw validationError([{ path: "file", message: "the file is not a PDF" }]);
                  }
                  if (behaviour === "stall")
                    await new Promise((_, reject) => context.signal.addEventListener("abort", reject));
                } else if (request.part.case === "chunk") {
                  hash.update(request.part.value);
                  size += request.part.value.length;
                }
              }
            } catch (err) {
              seen.ended.push(err instanceof ConnectError ? Code[err.code] : String(err));
              throw err;
            }
            // Node ends a stream reset by its caller like a finished one, and aborts the call a
            // moment later (the documents service checks before it keeps anything).
            await new Promise((resolve) => setTimeout(resolve, 50));
            seen.ended.push(context.signal.aborted ? "called off" : "read");
            return {
              document: create(DocumentSchema, {
                filename,
                sizeBytes: BigInt(size),
                sha256: hash.digest("hex"),
              }),
            };
          },
        }),
    ],
    health: new HealthState([DocumentsService.typeName], async () => {}),
    logger: createLogger({ name: "relay-test", level: "silent" }),
    metrics: createRpcMetrics(),
    port: 0,
    host: "127.0.0.1",
    access: operatorOnly(TOKEN),
  });
  running.push(server);
  return server;
}

function relayed(address: string, token = TOKEN) {
  const transport = networkTransport(address, token);
  return withRelayedUploads(serviceClient(DocumentsService, transport), transport, token);
}

/** A header, then `file` in 1 MiB chunks; `taken` counts the chunks the relay asked for. */
function upload(file: Uint8Array, taken = { chunks: 0 }, failAfter = Number.POSITIVE_INFINITY) {
  return (async function* (): AsyncGenerator<UploadDocumentRequest> {
    yield create(UploadDocumentRequestSchema, { part: { case: "header", value: { filename: "a.pdf" } } });
    for await (const chunk of inChunksOf(Readable.from([file]))) {
      if (taken.chunks === failAfter) throw new Error("the caller's body broke off");
      taken.chunks++;
      yield create(UploadDocumentRequestSchema, { part: { case: "chunk", value: chunk } });
    }
  })();
}

const seen = (): Seen => ({ requestIds: [], ended: [] });

/** The service's handler ends a moment after the caller's call: waits for it, up to 2 s. */
async function untilEnded(saw: Seen): Promise<void> {
  for (let i = 0; i < 100 && saw.ended.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
}

test("the bytes arrive whole and in order, with the service token and the caller's request id", async () => {
  const saw = seen();
  const server = await startDocuments("store", saw);
  const file = randomBytes(3.5 * 1024 * 1024);
  const { document } = await relayed(server.url).uploadDocument(upload(file), {
    headers: { [REQUEST_ID_HEADER]: "req-relay-1" },
  });
  expect(document?.filename).toBe("a.pdf");
  expect(Number(document?.sizeBytes)).toBe(file.length);
  expect(document?.sha256).toBe(createHash("sha256").update(file).digest("hex"));
  expect(saw.requestIds).toEqual(["req-relay-1"]);
  expect(saw.ended).toEqual(["read"]);
  // The token is the service's to check: without it the same call is refused.
  const err = await relayed(server.url, "another-token")
    .uploadDocument(upload(file))
    .catch((e: unknown) => e);
  expect(ConnectError.from(err).code).toBe(Code.Unauthenticated);
});

test("the service's refusal reaches the caller with its details, and the rest of the file is not read", async () => {
  const server = await startDocuments("refuse", seen());
  const taken = { chunks: 0 };
  const err = ConnectError.from(
    await relayed(server.url)
      .uploadDocument(upload(randomBytes(40 * 1024 * 1024), taken))
      .catch((e: unknown) => e),
  );
  expect(err.code).toBe(Code.InvalidArgument);
  expect(err.findDetails(ValidationErrorsSchema)[0]?.errors).toEqual([
    expect.objectContaining({ path: "file", message: "the file is not a PDF" }),
  ]);
  expect(taken.chunks).toBeLessThan(40);
});

test("a caller's body that breaks off fails the call with its own error, and the service sees the call cancelled", async () => {
  const saw = seen();
  const server = await startDocuments("store", saw);
  const err = await relayed(server.url)
    .uploadDocument(upload(randomBytes(5 * 1024 * 1024), { chunks: 0 }, 2))
    .catch((e: unknown) => e);
  expect((err as Error).message).toBe("the caller's body broke off");
  await untilEnded(saw);
  expect(saw.ended).toEqual(["called off"]);
});

test("a call past its deadline fails as such and is ended at the service", async () => {
  const saw = seen();
  const server = await startDocuments("stall", saw);
  const err = ConnectError.from(
    await relayed(server.url)
      .uploadDocument(upload(randomBytes(1024)), { timeoutMs: 300 })
      .catch((e: unknown) => e),
  );
  expect(err.code).toBe(Code.DeadlineExceeded);
  await untilEnded(saw);
  expect(saw.ended).toHaveLength(1);
});

test("a replica that refuses connections is passed over", async () => {
  const server = await startDocuments("store", seen());
  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const client = relayed(`http://127.0.0.1:${port},${server.url}`);
  for (let i = 0; i < 6; i++) {
    const { document } = await client.uploadDocument(upload(randomBytes(1024)));
    expect(Number(document?.sizeBytes)).toBe(1024);
  }
});

test("an answer that breaks off before its end-of-stream message is an outage, not a fault of ours", async () => {
  // A peer that answers 200 and then ends the stream without a word, as a replica cut mid-call looks.
  const cut = http2.createServer();
  const sessions = new Set<http2.ServerHttp2Session>();
  cut.on("session", (session) => sessions.add(session));
  cut.on("stream", (stream) => {
    stream.respond({ ":status": 200, "content-type": "application/connect+proto" });
    stream.on("data", () => {});
    stream.end();
  });
  await new Promise<void>((resolve) => cut.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = cut.address() as AddressInfo;
    const err = await relayed(`http://127.0.0.1:${port}`)
      .uploadDocument(upload(randomBytes(1024)))
      .catch((e: unknown) => e);
    expect(ConnectError.from(err).code).toBe(Code.Unavailable);
  } finally {
    // The client keeps its connection for later calls: closing waits for it unless it is ended.
    for (const session of sessions) session.destroy();
    await new Promise((resolve) => cut.close(resolve));
  }
});

test("a connection reset mid-upload is an outage, not a fault of ours", async () => {
  // A peer whose process dies while it reads the upload: its kernel resets the connection.
  const dying = http2.createServer();
  const sockets: net.Socket[] = [];
  dying.on("connection", (socket: net.Socket) => sockets.push(socket));
  dying.on("stream", (stream) => {
    stream.respond({ ":status": 200, "content-type": "application/connect+proto" });
    let received = 0;
    stream.on("data", (piece: Buffer) => {
      received += piece.length;
      if (received > 1024 * 1024) for (const socket of sockets) socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => dying.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = dying.address() as AddressInfo;
    const err = await relayed(`http://127.0.0.1:${port}`)
      .uploadDocument(upload(randomBytes(8 * 1024 * 1024)))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect((err as ConnectError).code).toBe(Code.Unavailable);
  } finally {
    await new Promise((resolve) => dying.close(resolve));
  }
});
