/**
 * An outage is told from a bug by what the failure really looks like: PostgreSQL connections cut
 * by the server, a peer that refuses connections, a connection to a service that broke mid-call.
 */
import net, { type AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import pg from "pg";
import { asBrokenCall, isDependencyOutage } from "../src/outage.js";
import { available, POSTGRES_URL } from "./infra.js";

const failureOf = async (action: () => Promise<unknown>): Promise<unknown> => {
  try {
    await action();
  } catch (err) {
    return err;
  }
  throw new Error("the action did not fail");
};

test("a PostgreSQL connection terminated by the server is an outage, whichever way it surfaces", async () => {
  if (!(await available("Postgres", POSTGRES_URL))) return;
  const victim = new pg.Client({ connectionString: POSTGRES_URL });
  victim.on("error", () => {});
  await victim.connect();
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    const { rows } = await victim.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    const slow = failureOf(() => victim.query("SELECT pg_sleep(5)"));
    await new Promise((resolve) => setTimeout(resolve, 100));
    await admin.query("SELECT pg_terminate_backend($1)", [rows[0]?.pid]);
    const during = await slow;
    const after = await failureOf(() => victim.query("SELECT 1"));
    expect([isDependencyOutage(during), isDependencyOutage(after)]).toEqual([true, true]);
  } finally {
    await admin.end();
    await victim.end().catch(() => {});
  }
});

test("a refused connection is an outage, also inside an AggregateError or as a cause", async () => {
  const port = await new Promise<number>((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  const refused = await failureOf(() => client.connect());
  expect(isDependencyOutage(refused)).toBe(true);
  expect(isDependencyOutage(new Error("upload failed", { cause: new AggregateError([refused]) }))).toBe(true);
});

test("errors of our own are not outages", () => {
  expect(isDependencyOutage(new Error("pg: connection to 10.1.2.3 failed"))).toBe(false);
  expect(isDependencyOutage(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  expect(isDependencyOutage(new TypeError("cannot read properties of undefined"))).toBe(false);
});

test("a call whose connection broke is UNAVAILABLE; a service's own answer passes unchanged", () => {
  const connectionReset = Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" });
  const broken = new ConnectError("aborted", Code.Aborted, undefined, undefined, connectionReset);
  expect(ConnectError.from(asBrokenCall(broken, "requests", false)).code).toBe(Code.Unavailable);
  // A stream the replica reset while shutting down reads as CANCELED without a cause.
  const reset = new ConnectError("http/2 stream closed with error code CANCEL (0x8)", Code.Canceled);
  expect(ConnectError.from(asBrokenCall(reset, "requests", false)).code).toBe(Code.Unavailable);
  expect(asBrokenCall(reset, "requests", true)).toBe(reset);

  const answered = new ConnectError("request is not a draft", Code.Aborted);
  expect(asBrokenCall(answered, "requests", false)).toBe(answered);
  const cancelled = new ConnectError("cancelled", Code.Canceled, undefined, undefined, connectionReset);
  expect(asBrokenCall(cancelled, "requests", true)).toBe(cancelled);
});
