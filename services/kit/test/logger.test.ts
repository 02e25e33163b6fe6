import { Writable } from "node:stream";
import { runWithCallContext } from "../src/context.js";
import { createLogger, redactSecrets } from "../src/logger.js";

/** A logger whose lines are parsed into `lines` as they are written. */
function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: "kit-test", level, destination }) };
}

test("secret, password, token, authorization and cookie fields are written as [redacted] at any depth", () => {
  const { lines, logger } = capture();
  logger.info(
    {
      secret: "sk_top_level",
      user: { password: "pw_nested_once" },
      request: { headers: { authorization: "Bearer sk_in_headers", cookie: "cs_session=abc123" } },
      a: { b: { c: { d: { e: { f: { g: { h: { token: "tk_nine_levels_down" } } } } } } } },
      harmless: "visible",
    },
    "signing request",
  );
  const written = JSON.stringify(lines);
  for (const secret of [
    "sk_top_level",
    "pw_nested_once",
    "sk_in_headers",
    "cs_session",
    "tk_nine_levels_down",
  ])
    expect(written).not.toContain(secret);
  expect(lines[0]).toMatchObject({
    secret: "[redacted]",
    user: { password: "[redacted]" },
    request: { headers: { authorization: "[redacted]", cookie: "[redacted]" } },
    harmless: "visible",
    msg: "signing request",
    service: "kit-test",
  });
});

test("secret fields inside arrays and in any letter case are redacted, other fields kept", () => {
  const { lines, logger } = capture();
  logger.info(
    { calls: [{ headers: { "Set-Cookie": "cs=zzz", Authorization: "Bearer x1" } }], count: 3 },
    "x",
  );
  expect(lines[0]).toEqual(
    expect.objectContaining({
      calls: [{ headers: { "Set-Cookie": "[redacted]", Authorization: "[redacted]" } }],
      count: 3,
    }),
  );
});

test("redaction copies: the logged object keeps its secrets, and an object without any is passed as it is", () => {
  const request = { headers: { authorization: "Bearer keep-me" }, path: "/v1/requests" };
  const redacted = redactSecrets(request);
  expect(redacted.headers.authorization).toBe("[redacted]");
  expect(request.headers.authorization).toBe("Bearer keep-me");
  const clean = { path: "/v1/requests", status: 200, nested: { list: [1, 2] } };
  expect(redactSecrets(clean)).toBe(clean);
});

test("lines written inside a call context carry its request id, and lines outside carry none", async () => {
  const { lines, logger } = capture();
  await runWithCallContext({ requestId: "req-42" }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    logger.info("inside, after an await");
  });
  logger.info("outside");
  expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
    ["inside, after an await", "req-42"],
    ["outside", undefined],
  ]);
});

test("lines below the configured level are not written", () => {
  const { lines, logger } = capture("warn");
  logger.info("too chatty");
  logger.warn("worth saying");
  expect(lines.map((line) => line.msg)).toEqual(["worth saying"]);
});
