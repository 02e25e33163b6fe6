/**
 * A process whose state is unknown — a rejection or exception nobody handled — logs why and exits
 * non-zero, so its orchestrator replaces it, instead of going on serving.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const FAULTY = fileURLToPath(new URL("./faulty-process.ts", import.meta.url));

function runFaulty(fault: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = execFile("node", ["--import", "tsx", FAULTY, fault], { timeout: 20_000 }, (_err, stdout) =>
      resolve({ code: child.exitCode, stdout }),
    );
  });
}

test.each([
  ["rejection", "unhandled promise rejection", "nobody handles this"],
  ["exception", "uncaught exception", "nobody catches this"],
])("an unhandled %s is logged as fatal and the process exits with 1", async (fault, kind, message) => {
  const { code, stdout } = await runFaulty(fault);
  expect(code).toBe(1);
  const line = stdout
    .split("\n")
    .filter(Boolean)
    .map((text) => JSON.parse(text) as { level: number; fault: string; err: { message: string } })
    .find((entry) => entry.level === 60);
  expect(line).toMatchObject({ fault: kind, err: { message } });
});
