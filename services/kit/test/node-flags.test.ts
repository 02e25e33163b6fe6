import { Writable } from "node:stream";
import { createLogger } from "../src/logger.js";
import { missingNodeFlags, NODE_FLAGS, warnWithoutNodeFlags } from "../src/node-flags.js";

function captured() {
  const lines: { level: number; msg: string; missing?: string[] }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: createLogger({ name: "test", level: "info", destination: stream }) };
}

test("a process started with the flags is told nothing; one without them is told which flag and why", () => {
  expect(missingNodeFlags(["--expose-gc", ...NODE_FLAGS])).toEqual([]);
  expect(missingNodeFlags(["--expose-gc"])).toEqual(NODE_FLAGS);

  const quiet = captured();
  warnWithoutNodeFlags(quiet.logger, [...NODE_FLAGS]);
  expect(quiet.lines).toEqual([]);

  const told = captured();
  warnWithoutNodeFlags(told.logger, ["--expose-gc"]);
  expect(told.lines).toEqual([
    expect.objectContaining({
      level: 40,
      missing: ["--no-wasm-code-gc"],
      msg: expect.stringContaining("nodejs/node#66366"),
    }),
  ]);
});
