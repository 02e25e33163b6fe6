/** A real SMTP server on a free loopback port that keeps every message it receives, parsed. */
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  /** The From line's display name. */
  fromName: string;
  /** Where replies go, when the message says. */
  replyTo: string | undefined;
  subject: string;
  text: string;
  html: string;
  /** The first signing link in the text part. */
  link: string | undefined;
}

/** Listens on `host`:`port` (loopback, a free port, unless given). */
export async function startSmtpPeer({ host = "127.0.0.1", port = 0 } = {}) {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          for (const rcpt of session.envelope.rcptTo) {
            mails.push({
              to: rcpt.address,
              fromName: parsed.from?.value[0]?.name ?? "",
              replyTo: parsed.replyTo?.value[0]?.address,
              subject: parsed.subject ?? "",
              text,
              html: typeof parsed.html === "string" ? parsed.html : "",
              link: text.match(/https?:\/\/[^\s]+\/sign\/[A-Za-z0-9_-]{43}/)?.[0],
            });
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.server.address() as { port: number };
  return {
    url: `smtp://${host}:${address.port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
