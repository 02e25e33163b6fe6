/**
 * `npm run build:server`: the TypeScript of the generated code, the services, the gateway and the
 * local launchers, transpiled file by file to JavaScript in a `dist` folder beside each `src` (for
 * `gen`, beside the sources), with source maps. `npm start`, `npm run start:distributed` and the
 * image run that JavaScript (`node --conditions=compiled`, which the workspaces' package exports
 * map to `dist`): tsx compiled every module again on each start, in a thread and a process of its
 * own, which was a third of a start and a fifth of the idle memory. Tests keep running the sources.
 *
 * File by file, not bundled: every `dist` keeps its `src` layout, so paths made from
 * `import.meta.url` (migrations, the web build, the PDF worker) stay right. Type checking is
 * `npm run lint`'s job; esbuild only strips types.
 */
import { copyFile, mkdir, readdir, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** [sources, output]: every .ts below sources becomes a .js at the same place below output. */
const TREES = [
  ["gen/countersign", "gen/dist/countersign"],
  ["gen/grpc", "gen/dist/grpc"],
  ...["kit", "domain", "auth", "documents", "templates", "requests", "webhooks"].map((name) => [
    `services/${name}/src`,
    `services/${name}/dist`,
  ]),
  ["gateway/src", "gateway/dist"],
  ["deploy/local/src", "deploy/local/dist"],
];

async function filesBelow(dir) {
  const entries = await readdir(join(REPO, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(REPO, join(entry.parentPath, entry.name)))
    .filter((path) => !path.endsWith(".d.ts"));
}

const started = performance.now();
let count = 0;
for (const [sources, output] of TREES) {
  await rm(join(REPO, output), { recursive: true, force: true });
  const files = await filesBelow(sources);
  const typescript = files.filter((path) => path.endsWith(".ts"));
  await build({
    absWorkingDir: REPO,
    entryPoints: typescript,
    outbase: sources,
    outdir: output,
    format: "esm",
    platform: "node",
    target: "node24",
    sourcemap: "linked",
    logLevel: "warning",
  });
  // Plain JavaScript (a worker thread's entry) is used as it is.
  for (const path of files.filter((p) => p.endsWith(".mjs"))) {
    const target = join(REPO, output, relative(sources, path));
    await mkdir(dirname(target), { recursive: true });
    await copyFile(join(REPO, path), target);
  }
  count += typescript.length;
}
console.log(`build:server: ${count} modules in ${Math.round(performance.now() - started)} ms`);
