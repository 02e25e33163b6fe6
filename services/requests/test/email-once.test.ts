/**
 * Every e-mail goes out exactly once though the SMTP server is slow and two replicas send: a message
 * is sent only while its replica's claim on it holds (renewed just before sending), and marked done
 * as soon as the server took it, not after the rest of its batch.
 */
import { createMailer, uuidv7 } from "@countersign/kit";
import { SMTPServer } from "smtp-server";
import type { RequestsModule } from "../src/service.js";
import { type Harness, startHarness, until } from "./harness.js";

/** How long the server takes over each message: several claims' worth for a batch. */
const SLOW_MS = 300;
const received: string[] = [];
let server: SMTPServer;
let h: Harness;
let second: RequestsModule;

beforeAll(async () => {
  server = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const id = /^Message-ID:\s*<([^>]+)>/im.exec(Buffer.concat(chunks).toString("latin1"))?.[1] ?? "";
        setTimeout(() => {
          received.push(id);
          callback();
        }, SLOW_MS);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  const mailer = () =>
    createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      outboxDir: "",
      from: { name: "Countersign", email: "no-reply@example.com" },
    });
  const replica = { notificationClaimSeconds: 1, notificationPollIntervalMs: 100 };
  h = await startHarness({ ...replica, mailer: mailer() });
  second = await h.buildModule({ ...replica, mailer: mailer() });
  await second.start();
});
afterAll(async () => {
  await second?.stop();
  await h?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test("ten invitations through a slow server and two replicas: each delivered once, with its own Message-ID", async () => {
  const ws = uuidv7();
  const templateId = await h.template(ws);
  for (let i = 0; i < 10; i += 1) {
    await h.requests.createSignatureRequest({
      workspaceId: ws,
      title: `NDA ${i}`,
      templateId,
      recipients: [
        { name: "Ada", email: `ada.${i}@example.com`, role: "Client" },
        { name: "Bob", email: `bob.${i}@example.com`, role: "Countersigner" },
      ],
      send: true,
    });
  }
  await until(() => received.length >= 10, 30_000);
  // Long enough for every claim to run out and be taken again, were any message left undone.
  await new Promise((r) => setTimeout(r, 2500));
  expect(received).toHaveLength(10);
  expect(new Set(received).size).toBe(10);
  const { rows } = await h.db.query<{ open: number }>(
    "SELECT count(*)::int AS open FROM notifications WHERE done_at IS NULL",
  );
  expect(rows[0]?.open).toBe(0);
}, 60_000);
