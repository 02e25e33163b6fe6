/** The e-mails a deployment without SMTP wrote as .eml files into its data dir's outbox. */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { simpleParser } from "mailparser";

export interface OutboxMail {
  to: string;
  /** The From line's display name. */
  fromName: string;
  /** The From line's address. */
  fromAddress: string;
  /** The Sender line's address, when there is one. */
  sender: string | undefined;
  /** Where replies go, when the e-mail says. */
  replyTo?: string;
  subject: string;
  text: string;
  /** The HTML part; empty when there is none. */
  html: string;
  /** The signing link in the e-mail, if there is one. */
  link?: string;
  attachments: { filename: string; content: Buffer; contentType: string }[];
}

export async function outboxMails(dataDir: string): Promise<OutboxMail[]> {
  const dir = join(dataDir, "outbox");
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith(".eml")).sort();
  return Promise.all(
    files.map(async (file) => {
      const parsed = await simpleParser(await readFile(join(dir, file)));
      const text = parsed.text ?? "";
      return {
        to: parsed.to && !Array.isArray(parsed.to) ? (parsed.to.value[0]?.address ?? "") : "",
        fromName: parsed.from?.value[0]?.name ?? "",
        fromAddress: parsed.from?.value[0]?.address ?? "",
        sender: (parsed.headers.get("sender") as { value?: { address?: string }[] } | undefined)?.value?.[0]
          ?.address,
        replyTo: parsed.replyTo?.value[0]?.address,
        subject: parsed.subject ?? "",
        text,
        html: typeof parsed.html === "string" ? parsed.html : "",
        link: /https?:\/\/\S+\/sign\/[A-Za-z0-9_-]{43}/.exec(text)?.[0],
        attachments: parsed.attachments.map((a) => ({
          filename: a.filename ?? "",
          content: a.content,
          contentType: a.contentType,
        })),
      };
    }),
  );
}
