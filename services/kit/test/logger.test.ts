import { Writable } from "node:stream";
import { runWithCallContext } from "../src/context.js";
import { createLogger, plainInfoWriter } from "../src/logger.js";

function capture() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, logger: createLogger({ name: "test", destination }) };
}

test("secrets are redacted by key name at any depth", () => {
  const { lines, logger } = capture();
  logger.info(
    {
      secret: "sk_top",
      password: "pw",
      request: { headers: { authorization: "Bearer sk_nested", cookie: "cs_session=abc" }, token: "t1" },
      deep: { a: { b: { apiKey: "sk_deep" } } },
      harmless: "visible",
    },
    "hello",
  );
  const text = JSON.stringify(lines[0]);
  for (const secret of ["sk_top", 'pw"', "sk_nested", "cs_session=abc", "t1", "sk_deep"])
    expect(text).not.toContain(secret);
  expect(lines[0]).toMatchObject({
    secret: "[redacted]",
    harmless: "visible",
    msg: "hello",
    service: "test",
  });
});

test("secrets inside arrays and headers of any letter case are redacted; other fields stay", () => {
  const { lines, logger } = capture();
  logger.info({ details: [{ headers: { "Set-Cookie": "cs_session=zzz" } }], count: 3 }, "nested");
  expect(JSON.stringify(lines[0])).not.toContain("cs_session=zzz");
  expect(lines[0]?.count).toBe(3);
});

test("the console's session cookie under either name and its CSRF token are redacted", () => {
  const { lines, logger } = capture();
  logger.info(
    {
      request: { headers: { cookie: "__Host-cs_session=host1; other=1", "x-csrf-token": "csrf1" } },
      response: { headers: { "set-cookie": "__Host-cs_session=host2; Path=/; Secure" } },
      body: { csrfToken: "csrf2" },
    },
    "console",
  );
  const text = JSON.stringify(lines[0]);
  for (const secret of ["host1", "host2", "csrf1", "csrf2"]) expect(text).not.toContain(secret);
});

test("secrets are redacted by what their field's name says, not by a list: names no list holds are caught", () => {
  const { lines, logger } = capture();
  const secrets = {
    sessionToken: "v1",
    sealPassword: "v2",
    webhook_signing_secret: "v3",
    refreshToken: "v4",
    privateKeyPem: "v5",
    "X-Api-Key": "v6",
    smtpCredentials: "v7",
    signingKey: "v8",
    tsaPasswd: "v9",
    otp: "v10",
  };
  const described = {
    keyId: "k1",
    keyPrefix: "sk_live_ab",
    tokenExpiresAt: "2026-11-26T10:00:00Z",
    signatureRequestId: "r1",
    passwordChangedAt: "2026-11-01",
    monkey: "m1",
  };
  logger.info({ nested: { ...secrets, ...described } }, "named");
  const line = lines[0] as { nested: Record<string, string> };
  for (const name of Object.keys(secrets))
    expect({ name, value: line.nested[name] }).toEqual({ name, value: "[redacted]" });
  expect(line.nested).toMatchObject(described);
});

test("a name's verdict is remembered, and stays right however many other names were logged", () => {
  const { lines, logger } = capture();
  for (let i = 0; i < 3; i++) {
    // Past the bound of remembered names: the memory starts again, it never answers wrongly.
    logger.info(Object.fromEntries(Array.from({ length: 3000 }, (_, n) => [`field${i}_${n}`, n])), "many");
    logger.info({ apiKey: "secret", keyId: "k1" }, "again");
  }
  for (const line of lines.filter((l) => (l as { msg: string }).msg === "again"))
    expect(line).toMatchObject({ apiKey: "[redacted]", keyId: "k1" });
  expect(lines.filter((l) => (l as { msg: string }).msg === "many")[2]).toMatchObject({ field2_2999: 2999 });
});

test("lines written inside a call context carry its request id", () => {
  const { lines, logger } = capture();
  runWithCallContext({ requestId: "req-42" }, () => logger.info("inside"));
  logger.info("outside");
  expect(lines[0]?.requestId).toBe("req-42");
  expect(lines[1]?.requestId).toBeUndefined();
});

test("a plain line is written as the logger writes the same fields itself, and only when its level takes info", () => {
  const { lines, logger } = capture();
  const child = logger.child({ component: "access" });
  const write = plainInfoWriter(child);
  const fields = {
    requestId: "r-1",
    method: "GET",
    path: '/v1/"quoted"\\path',
    status: 200,
    durationMs: 1.25,
  };
  write({ ...fields, keyId: undefined }, "request");
  child.info(fields, "request");
  const [plain, own] = lines;
  expect(Object.keys(plain ?? {})).toEqual(Object.keys(own ?? {}));
  expect({ ...plain, time: 0 }).toEqual({ ...own, time: 0 });
  expect(Date.parse(String(plain?.time))).toBeGreaterThan(Date.now() - 60_000);
  child.level = "warn";
  write(fields, "request");
  expect(lines).toHaveLength(2);
});
