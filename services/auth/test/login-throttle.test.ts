/**
 * Failed console log-ins are throttled per account and per address in the database every auth
 * replica shares: guesses spread over replicas count together, a locked account refuses even the
 * right password until its lock ends (with when to try again), and passwords are hashed with
 * Argon2id, a hash made before (scrypt) replaced at the next log-in.
 */
import { scryptSync } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Code, ConnectError } from "@connectrpc/connect";
import { AuthService, Role } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { RetryAfterSchema } from "@countersign/gen/countersign/errors/v1/errors_pb.js";
import {
  createLogger,
  createMailer,
  createRpcMetrics,
  inMemoryTransport,
  MemoryEventBus,
  serverInterceptors,
  serviceClient,
} from "@countersign/kit";
import { simpleParser } from "mailparser";
import { DEFAULT_LOGIN_THROTTLE, LoginThrottle } from "../src/login-throttle.js";
import { type AuthModule, buildAuth } from "../src/service.js";
import { PEPPER, PUBLIC_URL, type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
let replica: AuthModule;

const PASSWORD = "a-long-password";

beforeEach(async () => {
  auth = await startAuth();
  // A second replica on the same database, as two auth pods are.
  replica = await buildAuth({
    db: auth.db,
    bus: new MemoryEventBus(),
    logger: createLogger({ name: "auth-replica", level: "silent" }),
    keyPepper: PEPPER,
    publicUrl: PUBLIC_URL,
    mailer: createMailer({
      outboxDir: auth.outboxDir,
      from: { name: "Countersign", email: "no-reply@example.com" },
    }),
    loginThrottle: {
      ...DEFAULT_LOGIN_THROTTLE,
      address: { failures: 6, windowSeconds: 900, lockSeconds: 900 },
    },
  });
  await replica.start();
  await auth.module.accounts.bootstrap({
    workspaceName: "W",
    adminEmail: "a@example.com",
    adminPassword: PASSWORD,
  });
});
afterEach(async () => {
  await replica.stop();
  await auth.close();
});

function clientOf(module: AuthModule) {
  const logger = createLogger({ name: "test", level: "silent" });
  return serviceClient(
    AuthService,
    inMemoryTransport(module.routes, serverInterceptors({ logger, metrics: createRpcMetrics() })),
  );
}

async function logIn(
  client: ReturnType<typeof clientOf>,
  email: string,
  password: string,
  clientAddress: string,
) {
  try {
    await client.createSession({ email, password, clientAddress });
    return { code: "ok" as const };
  } catch (err) {
    const error = ConnectError.from(err);
    return {
      code: Code[error.code],
      retryAfter: error.findDetails(RetryAfterSchema)[0]?.seconds,
      message: error.rawMessage,
    };
  }
}

test("ten failures spread over two replicas and ten addresses lock the account: the right password is refused, with the wait, and another account still logs in", async () => {
  const clients = [auth.client, clientOf(replica)];
  for (let i = 0; i < 10; i++) {
    const outcome = await logIn(
      clients[i % 2] as ReturnType<typeof clientOf>,
      "A@example.com",
      "wrong-password",
      `198.51.100.${i}`,
    );
    expect(outcome.code).toBe("Unauthenticated");
  }
  const refused = await logIn(auth.client, "a@example.com", PASSWORD, "203.0.113.9");
  expect(refused).toMatchObject({
    code: "ResourceExhausted",
    message: expect.stringMatching(/try again in 15 minutes$/),
  });
  expect(refused.retryAfter).toBeGreaterThan(14 * 60);
  expect(refused.retryAfter).toBeLessThanOrEqual(15 * 60);

  // The owner is told once, whichever replica counted the failure that locked the account.
  await Promise.all([auth.module.noticesIdle(), replica.noticesIdle()]);
  const mails = (await readdir(auth.outboxDir)).filter((file) => file.endsWith(".eml"));
  expect(mails).toHaveLength(1);
  const mail = await simpleParser(await readFile(join(auth.outboxDir, mails[0] as string)));
  expect(mail.to && !Array.isArray(mail.to) ? mail.to.text : "").toBe("a@example.com");
  expect(mail.subject).toBe("Your Countersign account is locked for a while after failed log-ins");
  expect(mail.text).toMatch(/got the password wrong 10 times, the last from 198\.51\.100\.9\./);
  expect(mail.text).toMatch(/nobody can log in as a@example\.com until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);

  await auth.module.accounts.addMember(
    (await auth.client.listWorkspaces({})).workspaces[0]?.id as string,
    "b@example.com",
    Role.MEMBER,
    PASSWORD,
  );
  expect((await logIn(auth.client, "b@example.com", PASSWORD, "203.0.113.9")).code).toBe("ok");
});

test("an address that failed on many accounts is locked for all of them; other addresses are not", async () => {
  const client = clientOf(replica);
  for (let i = 0; i < 6; i++) {
    expect((await logIn(client, `guess-${i}@example.com`, "wrong-password", "198.51.100.7")).code).toBe(
      "Unauthenticated",
    );
  }
  expect((await logIn(client, "a@example.com", PASSWORD, "198.51.100.7")).code).toBe("ResourceExhausted");
  expect((await logIn(client, "a@example.com", PASSWORD, "198.51.100.8")).code).toBe("ok");
});

test("a log-in that succeeds clears its account's failures", async () => {
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 9; i++)
      await logIn(auth.client, "a@example.com", "wrong-password", `198.51.100.${round * 10 + i}`);
    expect((await logIn(auth.client, "a@example.com", PASSWORD, "203.0.113.1")).code).toBe("ok");
  }
});

test("a password hashed with scrypt before logs in, and its hash is replaced with Argon2id at OWASP's parameters", async () => {
  const salt = Buffer.alloc(16, 7);
  const old = [
    "scrypt",
    32768,
    8,
    1,
    salt.toString("base64"),
    scryptSync(PASSWORD, salt, 32, { N: 32768, r: 8, p: 1, maxmem: 64 * 2 ** 20 }).toString("base64"),
  ].join("$");
  await auth.db.query("UPDATE users SET password_hash = $1 WHERE email = 'a@example.com'", [old]);
  expect((await logIn(auth.client, "a@example.com", PASSWORD, "203.0.113.1")).code).toBe("ok");
  const { rows } = await auth.db.query<{ password_hash: string }>(
    "SELECT password_hash FROM users WHERE email = 'a@example.com'",
  );
  expect(rows[0]?.password_hash).toMatch(
    /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
  );
  expect((await logIn(auth.client, "a@example.com", PASSWORD, "203.0.113.1")).code).toBe("ok");
  expect((await logIn(auth.client, "a@example.com", "wrong-password", "203.0.113.1")).code).toBe(
    "Unauthenticated",
  );
});

test("a lock and its owner's notice are stored together: where the notice cannot be, the lock is not either", async () => {
  const throttle = new LoginThrottle(auth.db, {
    ...DEFAULT_LOGIN_THROTTLE,
    account: { ...DEFAULT_LOGIN_THROTTLE.account, failures: 2 },
  });
  await throttle.failed("ada@example.com", "192.0.2.1");
  const crashed = throttle.failed("ada@example.com", "192.0.2.1", async (tx) => {
    await tx.query("SELECT 1");
    throw new Error("the process died before the notice was written");
  });
  await expect(crashed).rejects.toThrow("the process died");
  // The failure that would have locked counted for nothing: the account is open.
  await expect(throttle.check("ada@example.com", "192.0.2.1")).resolves.toBeUndefined();
  const noticed: { lockedUntil: Date; failures: number }[] = [];
  const locked = await throttle.failed("ada@example.com", "192.0.2.1", async (_tx, lock) => {
    noticed.push(lock);
  });
  expect(locked.accountLockedNow).toBe(true);
  expect(noticed).toEqual([{ lockedUntil: locked.lockedUntil, failures: 2 }]);
  await expect(throttle.check("ada@example.com", "192.0.2.1")).rejects.toThrow("too many failed log-ins");
});
