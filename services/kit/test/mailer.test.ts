import { mkdtemp, readdir, readFile, rm, stat } from "node:fs/promises";
import { type AddressInfo, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";
import { createMailer, type MailMessage } from "../src/mailer.js";

const FROM = { name: "Countersign", email: "no-reply@example.com" };

function message(overrides: Partial<MailMessage> = {}): MailMessage {
  return {
    to: { name: "Ada Lovelace", email: "ada@example.com" },
    subject: "Please sign: NDA",
    text: "Hello Ada,\nhttps://sign.example.com/sign/abc\n",
    html: '<p>Hello Ada, <a href="https://sign.example.com/sign/abc">sign</a></p>',
    messageId: "0192f5d8-1234-7000-8000-000000000001",
    ...overrides,
  };
}

describe("over SMTP", () => {
  const received: Buffer[] = [];
  let server: SMTPServer;
  let port: number;
  beforeAll(async () => {
    server = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      onAuth(auth, _session, callback) {
        if (auth.username === "mailer" && auth.password === "s3cret-pass") callback(null, { user: "mailer" });
        else callback(new Error("Invalid username or password"));
      },
      onRcptTo(address, _session, callback) {
        if (address.address === "nobody@example.com") {
          const refusal = new Error("5.1.1 <nobody@example.com>: Recipient address rejected: User unknown");
          (refusal as Error & { responseCode: number }).responseCode = 550;
          callback(refusal);
        } else callback();
      },
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          received.push(Buffer.concat(chunks));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("a message reaches the server with both parts, the recipient and a stable Message-ID", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret-pass@127.0.0.1:${port}`,
      outboxDir: "",
      from: FROM,
    });
    await mailer.send(message());
    await mailer.close();
    const parsed = await simpleParser(received.at(-1) as Buffer);
    expect(parsed.subject).toBe("Please sign: NDA");
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "").toBe(
      '"Ada Lovelace" <ada@example.com>',
    );
    expect(parsed.from?.text).toBe('"Countersign" <no-reply@example.com>');
    expect(parsed.text).toContain("https://sign.example.com/sign/abc");
    expect(parsed.html).toContain('href="https://sign.example.com/sign/abc"');
    expect(parsed.messageId).toBe("<0192f5d8-1234-7000-8000-000000000001@countersign>");
  });

  test("a test message is written to the outbox, marked, and never reaches the SMTP server", async () => {
    const outboxDir = await mkdtemp(join(tmpdir(), "mailer-test-mode-"));
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret-pass@127.0.0.1:${port}`,
      outboxDir,
      from: FROM,
    });
    const before = received.length;
    const where = await mailer.send({ ...message(), test: true });
    await mailer.close();
    expect(received.length).toBe(before);
    expect(where).toContain(outboxDir);
    const [file] = await readdir(outboxDir);
    const parsed = await simpleParser(await readFile(join(outboxDir, file as string)));
    expect(parsed.subject).toBe("[TEST] Please sign: NDA");
    expect(parsed.headers.get("x-countersign-test")).toBe("true");
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "").toBe(
      '"Ada Lovelace" <ada@example.com>',
    );
  });

  test("the From line names who the mail is for, or the workspace's own sender name; the address stays ours and replies reach the sender", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret-pass@127.0.0.1:${port}`,
      outboxDir: "",
      from: FROM,
    });
    const ada = { name: "Ada Sender", email: "ada.sender@example.org" };
    await mailer.send(message({ onBehalfOf: ada }));
    const viaUs = await simpleParser(received.at(-1) as Buffer);
    await mailer.send(message({ onBehalfOf: ada, fromName: "Acme Leasing" }));
    const branded = await simpleParser(received.at(-1) as Buffer);
    await mailer.close();
    expect(viaUs.from?.text).toBe('"Ada Sender via Countersign" <no-reply@example.com>');
    expect(branded.from?.text).toBe('"Acme Leasing" <no-reply@example.com>');
    // Replies still reach the person who sent the request.
    expect(branded.replyTo?.text).toBe('"Ada Sender" <ada.sender@example.org>');
  });

  test("a server that accepts the connection and never greets fails the message at the greeting deadline, naming the server", async () => {
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${silentPort}`,
      outboxDir: "",
      from: FROM,
      timeoutsMs: { greeting: 500 },
    });
    const started = performance.now();
    const err = (await mailer.send(message()).catch((e: unknown) => e)) as Error;
    const waited = performance.now() - started;
    await mailer.close();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
    silent.unref();
    expect(err.message).toContain(`the SMTP server 127.0.0.1:${silentPort}`);
    expect(waited).toBeLessThan(5000);
  });

  test("a refused log-in fails without the password in the error", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:wrong-pass-xyz@127.0.0.1:${port}`,
      outboxDir: "",
      from: FROM,
    });
    const err = (await mailer.send(message()).catch((e: unknown) => e)) as Error;
    await mailer.close();
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toContain(`127.0.0.1:${port}`);
    expect(err.message).not.toContain("wrong-pass-xyz");
    expect(err.message).toMatch(/^the SMTP server 127\.0\.0\.1:\d+ refused the message: 535 /);
  });

  test("a refused recipient fails with the server's reply, for the administrator to read", async () => {
    const mailer = createMailer({
      smtpUrl: `smtp://mailer:s3cret-pass@127.0.0.1:${port}`,
      outboxDir: "",
      from: FROM,
    });
    const err = (await mailer
      .send(message({ to: { name: "Nobody", email: "nobody@example.com" } }))
      .catch((e: unknown) => e)) as Error;
    const reply = await mailer.send(message());
    await mailer.close();
    expect(err.message).toBe(
      `the SMTP server 127.0.0.1:${port} refused the message: 550 5.1.1 <nobody@example.com>: Recipient address rejected: User unknown`,
    );
    expect(reply).toMatch(/^250 /);
  });
});

describe("as .eml files", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "mailer-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  test("each message is one complete file, readable by the owner only, in the order queued", async () => {
    const mailer = createMailer({ outboxDir: join(dir, "outbox"), from: FROM });
    await mailer.send(message({ messageId: "0192f5d8-2000-7000-8000-000000000002", subject: "Second" }));
    await mailer.send(message({ messageId: "0192f5d8-1000-7000-8000-000000000001", subject: "First" }));
    const files = (await readdir(join(dir, "outbox"))).sort();
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith(".eml"))).toBe(true);
    const parsed = await Promise.all(
      files.map(async (f) => simpleParser(await readFile(join(dir, "outbox", f)))),
    );
    expect(parsed.map((p) => p.subject)).toEqual(["First", "Second"]);
    expect(parsed[0]?.text).toContain("https://sign.example.com/sign/abc");
    expect((await stat(join(dir, "outbox", files[0] as string))).mode & 0o777).toBe(0o600);
  });

  test("the same message written twice is one file", async () => {
    const mailer = createMailer({ outboxDir: dir, from: FROM });
    await mailer.send(message());
    await mailer.send(message());
    expect(await readdir(dir)).toHaveLength(1);
  });
});
