/**
 * A request's audit trail as a PDF report, for a reader without the API: the request, its
 * recipients, then every entry — when, what, who, from where, its details — with its hash, and
 * whether the chain holds. Each entry's hashed content is in the evidence package's JSON; the report
 * prints the hashes, which tie a printed entry to it.
 */
import { PDFDocument, rgb } from "pdf-lib";
import { browserSummary } from "./browser-summary.js";
import { footer, GREY, PageWriter, when } from "./page-writer.js";
import { Typesetter } from "./typesetter.js";

const WARNING = rgb(0.65, 0.1, 0.1);

export interface AuditReportEntry {
  sequence: number;
  at: Date;
  action: string;
  actor: { type: string; id: string; name?: string; email?: string; ip: string; userAgent: string };
  /** The entry's details as compact JSON ("{}" for none). */
  details: string;
  hash: string;
}

export interface AuditReportFacts {
  requestId: string;
  title: string;
  status: string;
  createdAt: Date;
  recipients: { name: string; email: string; kind: string; status: string }[];
  entries: AuditReportEntry[];
  /** Whether every entry's hash matched its content and the one before. */
  verified: boolean;
  drawnAt: Date;
}

/** Who acted, as a reader names them: "Ada Lovelace <ada@example.com> (recipient)". */
function actorText(actor: AuditReportEntry["actor"]): string {
  if (actor.type === "system") return "Countersign (the service itself)";
  const who = [actor.name, actor.email ? `<${actor.email}>` : ""].filter(Boolean).join(" ");
  const what = { api_key: "API key", user: "console user", recipient: "recipient" }[actor.type] ?? actor.type;
  return `${who || actor.id} (${what}${actor.id && who ? ` ${actor.id}` : ""})`;
}

export async function drawAuditReport(facts: AuditReportFacts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const typesetter = new Typesetter();
  const w = new PageWriter(doc, typesetter);
  await w.text("Audit trail", { size: 18, bold: true });
  w.gap(4);
  await w.text(facts.title, { size: 12 });
  w.gap(6);
  await w.pair("Request ID", facts.requestId);
  await w.pair("Status", facts.status);
  await w.pair("Created", when(facts.createdAt));
  await w.pair("Report drawn", when(facts.drawnAt));
  await w.pair(
    "Chain",
    facts.verified
      ? `intact: each of the ${facts.entries.length} entries' hash matches its content and the entry before`
      : "BROKEN: an entry's hash does not match its content or the entry before; the trail was changed after it was written",
  );
  w.rule();

  await w.text("Recipients", { size: 12, bold: true });
  for (const r of facts.recipients) await w.pair(r.kind, `${r.name} <${r.email}>, ${r.status}`);
  w.rule();

  if (facts.entries.length === 0) await w.text("Entries", { size: 12, bold: true });
  // Each entry is kept whole on a page, the heading with the first (PageWriter.together); an entry
  // whose details run longer than a page splits where it must.
  for (const [i, entry] of facts.entries.entries()) {
    await w.together(async () => {
      if (i === 0) await w.text("Entries", { size: 12, bold: true });
      w.gap(4);
      await w.text(`${entry.sequence}. ${entry.action} — ${when(entry.at)}`, { bold: true });
      await w.pair("By", actorText(entry.actor));
      if (entry.actor.ip || entry.actor.userAgent) {
        await w.pair(
          "From",
          [entry.actor.ip, entry.actor.userAgent && browserSummary(entry.actor.userAgent)]
            .filter(Boolean)
            .join(", "),
        );
      }
      if (entry.details !== "{}") await w.pair("Details", entry.details);
      await w.pair("SHA-256", entry.hash, "hash");
    });
  }
  w.rule();
  await w.text(
    "Each entry's SHA-256 is taken over its sequence, time, action, actor, details and the hash of the entry before, " +
      "as canonical JSON (RFC 8785). The request's evidence package holds each entry's hashed content, so anyone can " +
      "check every hash and the chain without this service.",
    { size: 8.5, color: facts.verified ? GREY : WARNING },
  );
  footer(doc, typesetter, (page, pages) => `Audit trail of ${facts.requestId} — page ${page} of ${pages}`);
  await typesetter.finish(doc);
  doc.setTitle(`Audit trail: ${facts.title}`);
  doc.setProducer("Countersign");
  doc.setCreationDate(facts.drawnAt);
  return doc.save();
}
