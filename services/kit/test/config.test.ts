import { z } from "zod";
import { ConfigError, env, loadConfig } from "../src/config.js";
import { runFixture } from "./fixtures/spawn.js";

const schema = z.object({
  PORT: env.port(8080),
  DATABASE_URL: env.url(),
  LOG_LEVEL: env.logLevel(),
  NATS_NAMESPACE: env.namespace(),
  TOKEN: env.secret().optional(),
  DEBUG_SQL: env.flag(),
});
const valid = { DATABASE_URL: "postgres://db:5432/auth" };

/** The error loadConfig throws for this environment (the test fails if it throws none). */
function configErrorFor(environment: Record<string, string>): ConfigError {
  try {
    loadConfig(schema, environment);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error(`no ConfigError for ${Object.keys(environment).join(", ")}`);
}

test("unset variables take their defaults, and numbers and flags are read from strings", () => {
  expect(loadConfig(schema, valid)).toEqual({
    PORT: 8080,
    DATABASE_URL: "postgres://db:5432/auth",
    LOG_LEVEL: "info",
    NATS_NAMESPACE: "countersign",
    DEBUG_SQL: false,
  });
  const set = loadConfig(schema, { ...valid, PORT: "9000", LOG_LEVEL: "debug", DEBUG_SQL: "true" });
  expect(set).toMatchObject({ PORT: 9000, LOG_LEVEL: "debug", DEBUG_SQL: true });
});

test("a flag is true for 'true' and '1', false for 'false', '0' and ''", () => {
  const flag = z.object({ F: env.flag() });
  expect(["true", "1", "false", "0", ""].map((F) => loadConfig(flag, { F }).F)).toEqual([
    true,
    true,
    false,
    false,
    false,
  ]);
});

test.each([
  ["PORT", "port-hunter2"],
  ["PORT", "7000000"],
  ["DATABASE_URL", "hunter2 is not a url"],
  ["LOG_LEVEL", "loud-hunter2"],
  ["NATS_NAMESPACE", "Hunter2.prod>"],
  ["TOKEN", "sk_short_hunter2"],
  ["DEBUG_SQL", "yes-hunter2"],
])("a bad %s throws a one-line ConfigError naming the variable and not echoing %p", (variable, value) => {
  const error = configErrorFor({ ...valid, [variable]: value });
  expect(error.message).toMatch(new RegExp(`^${variable}: \\S`));
  expect(error.message).not.toContain("\n");
  expect(error.message).not.toContain(value);
  expect(error.message).not.toContain("hunter2");
});

test("a missing required variable is named", () => {
  expect(configErrorFor({}).message).toMatch(/^DATABASE_URL: /);
});

test("runMain ends a process with a bad variable with exit code 78 and one line on stderr", async () => {
  const secret = "too-short-hunter2";
  const run = runFixture("run-main.ts", ["config"], { COUNTERSIGN_INTERNAL_TOKEN: secret });
  expect((await run.exited).code).toBe(78);
  expect(run.stderr()).toBe(
    "configuration error: COUNTERSIGN_INTERNAL_TOKEN: must be at least 32 characters\n",
  );
});

test("runMain ends a process whose main function fails otherwise with exit code 1 and the stack", async () => {
  const run = runFixture("run-main.ts", ["crash"], {});
  expect((await run.exited).code).toBe(1);
  expect(run.stderr()).toMatch(/^fatal: Error: the main function crashed\n\s+at /);
});
