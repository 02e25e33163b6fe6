/**
 * Where e-mails go: an SMTP server when SMTP_URL is set, otherwise `.eml` files in the data
 * directory (RFC 5322, as nodemailer builds them), so a fresh install shows its mail without any
 * server. Files are written whole or not at all, readable by the owner only: they hold signing links.
 */
import { mkdir, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { z } from "zod";
import { inSpan, SpanKind } from "./tracing.js";

/** The variables of every service that sends e-mail. */
export const mailConfig = {
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
    .optional()
    .describe(
      "`smtp://user:pass@host:587` or `smtps://…:465`; without it, e-mails are written to `$COUNTERSIGN_DATA_DIR/outbox`",
    ),
  COUNTERSIGN_MAIL_FROM: z
    .email()
    .default("no-reply@countersign.local")
    .describe("the sender address of e-mails"),
};

export interface MailAddress {
  name: string;
  email: string;
}

export interface MailMessage {
  to: MailAddress;
  /** Who the mail is sent for: named in the From line ("Ada via Countersign"), and where replies go. */
  onBehalfOf?: { name: string; email: string };
  /**
   * The From line's name in place of that ("Acme Leasing", a workspace's own); the address stays
   * ours, so SPF and DKIM still hold.
   */
  fromName?: string;
  /**
   * The From line's address in place of ours: a workspace's own, whose domain proved it is theirs.
   * Ours stays the envelope sender (bounces come back to us) and the Sender line.
   */
  fromAddress?: string;
  subject: string;
  text: string;
  html: string;
  /** Stable across retries, so a message sent again after a crash is recognisable as the same one. */
  messageId: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
  /**
   * A test key's message: written to the outbox, never sent, whatever the transport — a test
   * request's signers are often real addresses someone typed in.
   */
  test?: boolean;
}

export interface Mailer {
  /** Resolves with the server's reply once it has taken the message (the file's path for the outbox). */
  send(message: MailMessage): Promise<string>;
  close(): Promise<void>;
  /** Where messages go: an SMTP server, or .eml files in a folder. */
  readonly transport: "smtp" | "outbox";
  /** The server's host and port, or the outbox folder; never credentials. */
  readonly where: string;
  /** The deployment's own address: the From line's unless a workspace's, and the envelope sender. */
  readonly address: string;
}

export interface MailerOptions {
  smtpUrl?: string;
  outboxDir: string;
  from: MailAddress;
  /** SMTP_TIMEOUTS_MS unless given (tests make them short). */
  timeoutsMs?: Partial<typeof SMTP_TIMEOUTS_MS>;
}

function envelope(from: MailAddress, message: MailMessage) {
  const sender = message.onBehalfOf;
  return {
    // Our address is the From line's unless a workspace's verified one replaces it; ours then stays the
    // envelope sender and the Sender line. The person behind the request is named, and answered.
    from: {
      name: message.fromName || (sender?.name ? `${sender.name} via ${from.name}` : from.name),
      address: message.fromAddress || from.email,
    },
    ...(message.fromAddress
      ? { sender: from.email, envelope: { from: from.email, to: message.to.email } }
      : {}),
    ...(sender?.email ? { replyTo: { name: sender.name, address: sender.email } } : {}),
    to: { name: message.to.name, address: message.to.email },
    // A test message says so to whoever opens the outbox, and to a filter.
    subject: message.test ? `[TEST] ${message.subject}` : message.subject,
    ...(message.test ? { headers: { "X-Countersign-Test": "true" } } : {}),
    text: message.text,
    html: message.html,
    messageId: `<${message.messageId}@countersign>`,
    attachments: message.attachments,
  };
}

/** Where the server is, without the credentials the URL may carry. */
function serverOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.hostname}:${url.port || (url.protocol === "smtps:" ? 465 : 587)}`;
}

/** What nodemailer waits for at most: the connection, the server's greeting, any silence after. */
export const SMTP_TIMEOUTS_MS = { connect: 10_000, greeting: 10_000, socket: 30_000 };

/**
 * The SMTP server's reply, for an administrator to read: its first line, without anything that looks
 * like an encoded credential (a server may echo an AUTH exchange's base64), at most 300 characters.
 */
export function serverReply(response: unknown): string {
  if (typeof response !== "string") return "";
  const firstLine = response.split(/\r?\n/)[0] ?? "";
  return firstLine.replace(/[A-Za-z0-9+/]{16,}={0,2}/g, "[…]").slice(0, 300);
}

class SmtpMailer implements Mailer {
  readonly transport = "smtp" as const;
  readonly where: string;
  readonly address: string;
  private readonly smtp: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: MailAddress,
    timeoutsMs: Partial<typeof SMTP_TIMEOUTS_MS> = {},
  ) {
    const timeouts = { ...SMTP_TIMEOUTS_MS, ...timeoutsMs };
    // Deadlines well inside a message's claim (notifications.ts, 120 s): a server that stops
    // answering fails the attempt before another replica may take the message.
    this.smtp = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: timeouts.connect,
      greetingTimeout: timeouts.greeting,
      socketTimeout: timeouts.socket,
    });
    this.where = serverOf(smtpUrl);
    this.address = from.email;
  }

  async send(message: MailMessage): Promise<string> {
    try {
      const info = (await inSpan(
        "SMTP send",
        {
          kind: SpanKind.CLIENT,
          onlyInTrace: true,
          attributes: { "network.protocol.name": "smtp", "server.address": this.where },
        },
        () => this.smtp.sendMail(envelope(this.from, message)),
      )) as { response?: string };
      return serverReply(info.response);
    } catch (err) {
      const failure = err as { code?: string; responseCode?: number; response?: string; message?: string };
      const reply = serverReply(failure.response);
      const cause = reply
        ? `refused the message: ${reply}`
        : `could not take the message (${failure.code ?? "error"}${failure.code === "ETIMEDOUT" ? ": it did not answer in time" : ""})`;
      throw new Error(`the SMTP server ${this.where} ${cause}`);
    }
  }

  async close(): Promise<void> {
    this.smtp.close();
  }
}

class EmlMailer implements Mailer {
  readonly transport = "outbox" as const;
  private readonly compose = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: "unix",
  });

  constructor(
    private readonly dir: string,
    private readonly from: MailAddress,
  ) {}

  get where(): string {
    return this.dir;
  }

  get address(): string {
    return this.from.email;
  }

  async send(message: MailMessage): Promise<string> {
    const built = await this.compose.sendMail(envelope(this.from, message));
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // The id comes first in the name after a sortable time, so the same message lands in the same file.
    const path = join(this.dir, `${fileStamp(message.messageId)}-${message.messageId}.eml`);
    const temporary = `${path}.${process.pid}.tmp`;
    await writeFile(temporary, built.message as Buffer, { mode: 0o600 });
    await rename(temporary, path);
    return `written to ${path}`;
  }

  async close(): Promise<void> {
    this.compose.close();
  }
}

/**
 * The time a UUIDv7 message id was made, as a file-name-safe stamp: files sort by when their
 * notification was queued, and a message written twice keeps one name.
 */
function fileStamp(messageId: string): string {
  const hex = messageId.replace(/-/g, "").slice(0, 12);
  const ms = /^[0-9a-f]{12}$/i.test(hex) ? Number.parseInt(hex, 16) : 0;
  return new Date(ms).toISOString().replace(/[:.]/g, "-");
}

/** SMTP for live messages; test messages to the outbox beside it. */
class LiveOrTestMailer implements Mailer {
  constructor(
    private readonly live: Mailer,
    private readonly test: Mailer,
  ) {}

  get transport(): Mailer["transport"] {
    return this.live.transport;
  }

  get where(): string {
    return this.live.where;
  }

  get address(): string {
    return this.live.address;
  }

  send(message: MailMessage): Promise<string> {
    return (message.test ? this.test : this.live).send(message);
  }

  async close(): Promise<void> {
    await Promise.all([this.live.close(), this.test.close()]);
  }
}

export function createMailer(options: MailerOptions): Mailer {
  const outbox = new EmlMailer(options.outboxDir, options.from);
  return options.smtpUrl
    ? new LiveOrTestMailer(new SmtpMailer(options.smtpUrl, options.from, options.timeoutsMs), outbox)
    : outbox;
}
