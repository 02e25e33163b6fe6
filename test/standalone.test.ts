/**
 * Standalone mode as a user meets it: `npm start` on a fresh data directory is ready within 10 s (of
 * the time the machine gives it) and creates the first workspace and admin; the ops CLI prints one
 * JSON line; a restart keeps everything; bad configuration, a port in use and a second process on the same data stop with one
 * clear line, before anything (such as the first admin's password) is made — the second process
 * after saying at once that it waits for the first one's lock.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { type Deployment, OwnedProcess, REPO, startStandalone } from "./support/deployments.js";
import { call } from "./support/http.js";
import { schedulerTimes } from "./support/listening-process.js";

const run = promisify(execFile);

/**
 * Milliseconds since `started` that were the process's own: a start measured on a machine running
 * other suites beside it takes off the time its main thread waited for a processor (an idle start
 * of 5 s took 16 with six busy loops beside it, 11 of them in the run queue).
 */
function ownTimeMs(proc: OwnedProcess, started: number): number {
  return Date.now() - started - (schedulerTimes(proc.child.pid)?.queuedMs ?? 0);
}

describe("standalone mode", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "countersign-standalone-"));
  });

  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  test("a first start without a password is ready within 10 s and prints a generated admin password once, never in a log line", async () => {
    const started = Date.now();
    // What `npm start` runs: `npm run build:server`'s JavaScript.
    const proc = OwnedProcess.start("deploy/local/dist/standalone.js", {
      PORT: "0",
      COUNTERSIGN_DATA_DIR: join(dataDir, "generated"),
    });
    try {
      await proc.waitFor(/Countersign is ready \(standalone\)/, 60_000);
      expect(ownTimeMs(proc, started)).toBeLessThan(10_000);
      const password = proc.output.match(/Password: {3}(\S+) {3}\(generated/)?.[1];
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      const logLines = proc.output.split("\n").filter((line) => line.startsWith("{"));
      expect(logLines.length).toBeGreaterThan(0);
      for (const line of logLines) expect(line).not.toContain(password);
    } finally {
      await proc.stop();
    }
  });

  describe("with a running server", () => {
    let deployment: Deployment;

    beforeAll(async () => {
      deployment = await startStandalone(join(dataDir, "kept"));
    });

    afterAll(() => deployment?.stop());

    test("`npm run -s cli -- keys create --name NAME` prints exactly one JSON line with the key, its secret and account", async () => {
      const { stdout } = await run(
        "npm",
        ["run", "-s", "cli", "--", "keys", "create", "--name", "from npm"],
        {
          cwd: REPO,
          env: { ...process.env, COUNTERSIGN_DATA_DIR: deployment.dataDir },
        },
      );
      const lines = stdout.split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      const key = JSON.parse(lines[0] as string) as Record<string, string>;
      expect(Object.keys(key).sort()).toEqual([
        "accountId",
        "createdAt",
        "expiresAt",
        "fullAccess",
        "hint",
        "id",
        "lastUsedAt",
        "name",
        "scopes",
        "secret",
        "test",
      ]);
      expect(key.hint).toBe(key.secret?.slice(-4));
      // A live key: a test key is asked for (--test).
      expect(key.test).toBe(false);
      expect(key.name).toBe("from npm");
      expect(key.secret).toMatch(/^sk_[0-9A-Za-z]{43}$/);
      expect(new Date(key.createdAt as string).toISOString()).toBe(key.createdAt);
      expect((await call(deployment.gateways[0] as string, "/v1/ping", { key: key.secret })).status).toBe(
        200,
      );
    });

    test("the CLI runs the team as the console does — keys that expire, invitations, roles, removal — and the audit names the operator", async () => {
      const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString();
      const expiring = await deployment.cli("keys", "create", "--name", "short-lived", "--expires", inAYear);
      expect(JSON.parse(expiring.stdout)).toMatchObject({ name: "short-lived", expiresAt: inAYear });
      expect((await deployment.cli("keys", "create", "--name", "x", "--expires", "soon")).stderr).toContain(
        "--expires must be a date-time",
      );

      const invited = JSON.parse(
        (await deployment.cli("members", "invite", "--email", "cli-invitee@example.com", "--role", "member"))
          .stdout,
      ) as { id: string; invitedBy: string };
      expect(invited.invitedBy).toBe("operator");
      const open = (await deployment.cli("invitations", "list")).stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(open.map((i: { email: string }) => i.email)).toContain("cli-invitee@example.com");
      expect(JSON.parse((await deployment.cli("invitations", "revoke", invited.id)).stdout)).toEqual({
        revoked: invited.id,
      });

      const added = JSON.parse(
        (await deployment.cli("members", "add", "--email", "cli-member@example.com", "--role", "member"))
          .stdout,
      ) as { userId: string };
      expect(
        JSON.parse((await deployment.cli("members", "set-role", added.userId, "--role", "org_admin")).stdout),
      ).toMatchObject({ email: "cli-member@example.com", role: "org_admin" });
      expect(JSON.parse((await deployment.cli("members", "remove", added.userId)).stdout)).toEqual({
        removed: added.userId,
      });

      const audit = (await deployment.cli("audit", "list")).stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(
        audit.slice(0, 5).map((e: { actor: string; action: string }) => `${e.actor} ${e.action}`),
      ).toEqual([
        "operator member.removed",
        "operator member.role_changed",
        "operator member.added",
        "operator invitation.revoked",
        "operator member.invited",
      ]);
    });

    test("the CLI explains bad input with exit code 2 and service errors with exit code 1", async () => {
      const usage = await deployment.cli("keys", "create");
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain("--name is required");
      const missing = await deployment.cli("keys", "delete", "00000000-0000-7000-8000-000000000000");
      expect(missing.code).toBe(1);
      expect(missing.stderr.trim()).toBe("error: API key not found");
    });

    test("a second process on the same data directory says within 2 s that it waits for the first one's lock, then is refused with one line", async () => {
      const started = Date.now();
      // What `npm start` runs, so the time is the user's: the sources would add tsx's compiling.
      const second = OwnedProcess.start("deploy/local/dist/standalone.js", {
        PORT: "0",
        COUNTERSIGN_DATA_DIR: deployment.dataDir,
      });
      // Stopped whatever happens: left waiting, it would take the lock once the first one stops.
      try {
        const [waiting] = await second.waitFor(/^\{.*"msg":"waiting up to .*\}$/m, 15_000);
        // The lock is taken before the services' modules load.
        expect(ownTimeMs(second, started)).toBeLessThan(2000);
        const line = JSON.parse(waiting) as { msg: string; holderPid: number };
        expect(line.holderPid).toBe(deployment.pid);
        expect(line.msg).toMatch(
          new RegExp(
            `^waiting up to 15 s for the data directory's lock, held by another process \\(pid ${deployment.pid}, started \\d{4}-.*\\): two processes must never open the same database files`,
          ),
        );
        expect(await second.exit()).toBe(78);
        const lines = second.output.trim().split("\n");
        expect(lines).toEqual([
          waiting,
          expect.stringMatching(
            /^configuration error: COUNTERSIGN_DATA_DIR: .* is in use by another running Countersign/,
          ),
        ]);
      } finally {
        await second.stop();
      }
    });

    test("a restart keeps workspaces and keys, and creates nothing anew", async () => {
      const created = JSON.parse((await deployment.cli("keys", "create", "--name", "survivor")).stdout) as {
        secret: string;
      };
      const before = (await deployment.cli("workspaces", "list")).stdout;
      await deployment.stop();
      deployment = await startStandalone(deployment.dataDir);
      expect(deployment.output()).not.toContain("first start");
      expect((await deployment.cli("workspaces", "list")).stdout).toBe(before);
      expect((await call(deployment.gateways[0] as string, "/v1/ping", { key: created.secret })).status).toBe(
        200,
      );
    });
  });

  test("a port in use stops a first start with one line naming PORT, before anything is made; the next start still shows the password", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "0.0.0.0", resolve));
    const port = (taken.address() as AddressInfo).port;
    const dir = join(dataDir, "port-taken");
    try {
      const refused = OwnedProcess.start("deploy/local/dist/standalone.js", {
        PORT: String(port),
        COUNTERSIGN_DATA_DIR: dir,
      });
      expect(await refused.exit()).toBe(78);
      const lines = refused.output.trim().split("\n");
      expect(lines).toEqual([
        `configuration error: PORT: port ${port} on 0.0.0.0 is already in use; stop what uses it or set PORT to another port`,
      ]);
    } finally {
      taken.close();
    }
    const proc = OwnedProcess.start("deploy/local/dist/standalone.js", {
      PORT: "0",
      COUNTERSIGN_DATA_DIR: dir,
    });
    try {
      await proc.waitFor(/Countersign is ready \(standalone\)/, 20_000);
      expect(proc.output).toMatch(/Password: {3}[A-Za-z0-9]{20} {3}\(generated/);
    } finally {
      await proc.stop();
    }
  });

  test("a bad configuration value stops the process with one line naming the variable, not its value", async () => {
    const proc = OwnedProcess.start("deploy/local/dist/standalone.js", {
      PORT: "eighty",
      COUNTERSIGN_DATA_DIR: join(dataDir, "bad"),
    });
    expect(await proc.exit()).toBe(78);
    const lines = proc.output.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^configuration error: PORT: /);
    expect(lines[0]).not.toContain("eighty");
  });

  test("the CLI with no server running says how to start one", async () => {
    const { code, stderr } = await (async () => {
      try {
        await run(process.execPath, ["--import", "tsx", "deploy/local/src/cli.ts", "keys", "list"], {
          cwd: REPO,
          env: { ...process.env, COUNTERSIGN_DATA_DIR: join(dataDir, "nothing-here") },
        });
        return { code: 0, stderr: "" };
      } catch (err) {
        return err as { code: number; stderr: string };
      }
    })();
    expect(code).toBe(1);
    expect(stderr).toContain("no running Countersign found");
  });
});
