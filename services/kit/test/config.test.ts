import { z } from "zod";
import { ConfigError, env, loadConfig } from "../src/config.js";

const schema = z.object({ PORT: env.port(8080), DATABASE_URL: env.url(), TOKEN: env.secret().optional() });

test("defaults apply and values are coerced", () => {
  expect(loadConfig(schema, { DATABASE_URL: "postgres://db/x" })).toEqual({
    PORT: 8080,
    DATABASE_URL: "postgres://db/x",
  });
  expect(loadConfig(schema, { PORT: "9000", DATABASE_URL: "postgres://db/x" }).PORT).toBe(9000);
});

test("a bad value throws one line that names the variable and not the value", () => {
  const secret = "short-secret-value";
  for (const [environment, variable] of [
    [{ PORT: "eighty", DATABASE_URL: "postgres://db/x" }, "PORT"],
    [{ PORT: "70000", DATABASE_URL: "postgres://db/x" }, "PORT"],
    [{}, "DATABASE_URL"],
    [{ DATABASE_URL: "postgres://db/x", TOKEN: secret }, "TOKEN"],
  ] as const) {
    let error: unknown;
    try {
      loadConfig(schema, environment);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`${variable}: `)).toBe(true);
    expect(message).not.toContain("\n");
    for (const value of Object.values(environment))
      if (value.length > 6) expect(message).not.toContain(value);
  }
});

test("a namespace must be a safe NATS token", () => {
  const ns = z.object({ NATS_NAMESPACE: env.namespace() });
  expect(loadConfig(ns, {}).NATS_NAMESPACE).toBe("countersign");
  expect(() => loadConfig(ns, { NATS_NAMESPACE: "a.b>" })).toThrow(/^NATS_NAMESPACE: /);
});

test("a list of networks takes addresses and CIDR blocks of both families, and refuses anything else", () => {
  const schema = z.object({ COUNTERSIGN_TRUSTED_PROXIES: env.networks() });
  expect(loadConfig(schema, {}).COUNTERSIGN_TRUSTED_PROXIES).toEqual([]);
  expect(
    loadConfig(schema, { COUNTERSIGN_TRUSTED_PROXIES: " 10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1" })
      .COUNTERSIGN_TRUSTED_PROXIES,
  ).toEqual(["10.0.0.0/8", "192.168.1.7", "fd00::/8", "::1"]);
  for (const bad of ["10.0.0.0/33", "fd00::/129", "ingress", "10.0.0.0/8/1", "10.0.0/8"]) {
    expect(() => loadConfig(schema, { COUNTERSIGN_TRUSTED_PROXIES: bad })).toThrow(
      /^COUNTERSIGN_TRUSTED_PROXIES: must be comma-separated/,
    );
  }
});
