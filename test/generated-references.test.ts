/**
 * What `npm run lint` says of the generated files: docs/configuration.md is what the processes'
 * schemas say, and a stale copy, a variable read but never declared or a variable left undescribed
 * fails; gen/ is what proto/ generates, and an edited, missing or left-over file fails.
 */
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { z } from "zod";
import { PROCESSES } from "../deploy/local/src/configuration.js";
import {
  declaredVariables,
  REFERENCE_FILE,
  readings,
  renderReference,
  undeclaredVariables,
} from "../scripts/configuration-reference.js";
import { REPO } from "./support/deployments.js";

const run = promisify(execFile);
const TSX = join(REPO, "node_modules", ".bin", "tsx");

/** Runs a command in the repository; its exit code and what it wrote, without throwing. */
async function attempt(command: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: REPO });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "countersign-references-"));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the configuration reference", () => {
  test("docs/configuration.md is what the schemas say", async () => {
    expect(await readFile(join(REPO, REFERENCE_FILE), "utf8")).toBe(renderReference());
  });

  test("names the readers of the upload limit, which the README's table missed", () => {
    const documented = readings(PROCESSES);
    for (const name of [
      "COUNTERSIGN_MAX_UPLOAD_BYTES",
      "COUNTERSIGN_PUBLIC_URL",
      "AUTH_DATABASE_URL",
      "OTEL_TRACES_SAMPLER",
      "GATEWAY_REPLICAS",
    ])
      expect(documented.has(name)).toBe(true);
    // Standalone reads it too, for its gateway and its documents service alike.
    expect(documented.get("COUNTERSIGN_MAX_UPLOAD_BYTES")?.map((r) => r.process)).toEqual([
      "gateway",
      "documents",
      "converter",
      "standalone",
    ]);
  });

  test("the check, run on a stale copy, fails and names the file", async () => {
    const stale = join(scratch, "configuration.md");
    const current = await readFile(join(REPO, REFERENCE_FILE), "utf8");
    await writeFile(stale, current.replace("burst per key", "burst per key, doubled"));
    const result = await attempt(TSX, ["scripts/configuration-reference.ts", "--check", "--file", stale]);
    expect(result.code).toBe(1);
    expect(result.output).toContain("configuration.md is stale: run npm run docs:config");
  }, 60_000);

  test("a variable the code reads that no schema declares is named with its file", async () => {
    const source = join(scratch, "src");
    await mkdir(source);
    await writeFile(
      join(source, "new-feature.ts"),
      'export const limit = Number(process.env.COUNTERSIGN_NEW_LIMIT ?? 3) + Number(process.env["NEW_THING"]);\n',
    );
    expect(undeclaredVariables(declaredVariables(), [source], scratch)).toEqual([
      "COUNTERSIGN_NEW_LIMIT (src/new-feature.ts)",
      "NEW_THING (src/new-feature.ts)",
    ]);
    expect(undeclaredVariables(declaredVariables())).toEqual([]);
  });

  test("a variable without a description, or with two, stops the generation", () => {
    const described = (text: string) => z.string().optional().describe(text);
    expect(() =>
      renderReference([{ name: "one", schemas: [z.object({ NEW_VARIABLE: z.string() })] }]),
    ).toThrow("NEW_VARIABLE: no schema describes it");
    expect(() =>
      renderReference([
        { name: "one", schemas: [z.object({ NEW_VARIABLE: described("this") })] },
        { name: "two", schemas: [z.object({ NEW_VARIABLE: described("that") })] },
      ]),
    ).toThrow("NEW_VARIABLE: described differently by one and two");
  });
});

test("the gen/ check fails on an edited, a missing and a left-over file", async () => {
  const copy = join(scratch, "gen");
  await cp(join(REPO, "gen"), copy, { recursive: true, filter: (path) => !path.includes("node_modules") });
  const auth = join(copy, "countersign", "auth", "v1", "auth_service_pb.ts");
  await writeFile(auth, `${await readFile(auth, "utf8")}// edited by hand\n`);
  await unlink(join(copy, "grpc", "health", "v1", "health_pb.ts"));
  await writeFile(join(copy, "countersign", "auth", "v1", "retired_pb.ts"), "export {};\n");
  const result = await attempt("node", ["scripts/check-generated.mjs", "--gen", copy]);
  expect(result.code).toBe(1);
  expect(result.output).toContain("grpc/health/v1/health_pb.ts is missing");
  expect(result.output).toContain("countersign/auth/v1/retired_pb.ts is not generated from proto/ any more");
  expect(result.output).toContain(
    "countersign/auth/v1/auth_service_pb.ts differs from what proto/ generates",
  );
}, 120_000);
