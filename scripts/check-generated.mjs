// Fails when gen/ is not what `npm run generate` makes of proto/: buf generates into a temporary
// folder (offline: protoc-gen-es is a local plugin from node_modules, buf.gen.yaml) and every
// generated file is compared, both ways, so an edited, missing or left-over file is named.
//   node scripts/check-generated.mjs [--gen <folder to compare, default gen>]
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = fileURLToPath(new URL("../", import.meta.url));
const { values } = parseArgs({ options: { gen: { type: "string", default: "gen" } } });
const committed = resolve(REPO, values.gen);

/** The generated files under a folder: buf writes `*_pb.ts`; package.json and the like are ours. */
function generatedFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isFile() && entry.name.endsWith("_pb.ts") && !entry.parentPath.includes("node_modules"),
    )
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

const out = mkdtempSync(join(tmpdir(), "countersign-gen-"));
try {
  // buf.gen.yaml writes to gen/; --output puts that under the temporary folder.
  execFileSync("npm", ["run", "-s", "buf", "--", "generate", "--output", out], {
    cwd: REPO,
    stdio: "inherit",
  });
  const fresh = join(out, "gen");
  const expected = generatedFiles(fresh);
  const actual = generatedFiles(committed);
  const problems = [
    ...expected.filter((file) => !actual.includes(file)).map((file) => `${file} is missing`),
    ...actual
      .filter((file) => !expected.includes(file))
      .map((file) => `${file} is not generated from proto/ any more`),
    ...expected
      .filter((file) => actual.includes(file))
      .filter(
        (file) => readFileSync(join(fresh, file), "utf8") !== readFileSync(join(committed, file), "utf8"),
      )
      .map((file) => `${file} differs from what proto/ generates`),
  ];
  if (problems.length > 0) {
    for (const problem of problems) console.error(`gen/ is stale: ${problem}`);
    console.error("run npm run generate (and never edit gen/ by hand)");
    process.exitCode = 1;
  } else {
    console.log(`gen/: current (${expected.length} files, as proto/ generates them)`);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
