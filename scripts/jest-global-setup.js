// Before any suite: the servers' JavaScript, which the suites' deployments and the ops CLI run as
// `npm start` and the image do (scripts/build-server.mjs, about 0.3 s), so no suite runs a stale build.
import { execFileSync } from "node:child_process";

export default function buildServers() {
  execFileSync(process.execPath, [new URL("./build-server.mjs", import.meta.url).pathname], {
    stdio: "inherit",
  });
}
