// `buf breaking` against main: contracts on main may only grow. Skipped (with a line saying so)
// when main has no contracts yet, as on the commit that introduces them.
import { execFileSync } from "node:child_process";

const run = (command, args, options = {}) =>
  execFileSync(command, args, { stdio: "pipe", encoding: "utf8", ...options });

let mainHasProto = false;
try {
  mainHasProto = run("git", ["ls-tree", "-d", "main", "proto"]).trim() !== "";
} catch {
  mainHasProto = false;
}
if (!mainHasProto) {
  console.log("buf breaking: main has no proto/ yet; nothing to compare against");
} else {
  execFileSync("npm", ["run", "-s", "buf", "--", "breaking", "--against", ".git#branch=main"], {
    stdio: "inherit",
  });
  console.log("buf breaking: no breaking change against main");
}
