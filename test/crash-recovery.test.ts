/**
 * SIGKILL in the middle of work, in standalone mode: the process is killed while uploads, creates
 * and sends are in flight. After a restart on the same data, every write that was acknowledged is
 * there, every audit trail verifies, and every invitation that was queued is written exactly once —
 * within 30 seconds of the restart, not after a claim's lease runs out.
 */
import { type Deployment, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { outboxMails } from "./support/outbox-mail.js";
import { pdfsig } from "./support/pdf-tools.js";
import { makePdf } from "./support/pdfs.js";
import { SignerBrowser } from "./support/signer-browser.js";

const FAST_MAIL = { COUNTERSIGN_RATE_LIMIT_PER_SECOND: "10000", COUNTERSIGN_RATE_LIMIT_BURST: "10000" };

interface Acknowledged {
  documents: { id: string; sha256: string }[];
  requests: { id: string; email: string; sent: boolean }[];
}

/** The addresses the invitations in the outbox folder went to, one entry per .eml file. */
async function invitedAddresses(dataDir: string): Promise<string[]> {
  return (await outboxMails(dataDir)).map((mail) => mail.to);
}

describe("standalone mode: SIGKILL in the middle of a burst", () => {
  let deployment: Deployment;

  afterAll(() => deployment?.destroy(), 120_000);

  test("after a restart every acknowledged write is there, trails verify, and each invitation goes out once", async () => {
    deployment = await startStandalone(undefined, { env: FAST_MAIL });
    const dataDir = deployment.dataDir;
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "crash")).stdout) as {
      secret: string;
    };
    let api = `${deployment.gateways[0]}/api/v1`;
    const pdf = await makePdf(1);
    const upload = () =>
      call(api, "/documents/upload?filename=crash.pdf", {
        key: key.secret,
        method: "POST",
        body: pdf,
        headers: { "content-type": "application/pdf" },
      });
    const documentId = ((await upload()).body as { id: string }).id;
    const template = await call(api, "/templates", {
      key: key.secret,
      method: "POST",
      json: {
        name: "Crash",
        documentId,
        roles: [{ name: "Signer" }],
        fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 600, width: 150, height: 40 }],
      },
    });
    const templateId = (template.body as { id: string }).id;

    const acknowledged: Acknowledged = { documents: [], requests: [] };
    let n = 0;
    const createAndSend = async (send: boolean) => {
      const email = `signer-${n++}@crash.example`;
      const reply = await call(api, "/signature-requests", {
        key: key.secret,
        method: "POST",
        json: { title: "Crash", templateId, send, recipients: [{ name: "S", email, role: "Signer" }] },
      });
      if (reply.status !== 201) return;
      const id = (reply.body as { id: string }).id;
      if (send) {
        acknowledged.requests.push({ id, email, sent: true });
        return;
      }
      acknowledged.requests.push({ id, email, sent: false });
      const sent = await call(api, `/signature-requests/${id}/send`, {
        key: key.secret,
        method: "POST",
        json: {},
      });
      if (sent.status === 200) {
        const entry = acknowledged.requests.find((r) => r.id === id);
        if (entry) entry.sent = true;
      }
    };
    const uploadOne = async () => {
      const reply = await upload();
      if (reply.status === 201) acknowledged.documents.push(reply.body as { id: string; sha256: string });
    };
    // Work in flight from several clients at once; the kill lands in the middle of it.
    const work = Array.from({ length: 6 }, (_, worker) =>
      (async () => {
        for (let i = 0; i < 40; i++) {
          try {
            if (worker % 3 === 0) await uploadOne();
            else await createAndSend(worker % 3 === 1);
          } catch {
            return; // the connection died with the process
          }
        }
      })(),
    );
    await eventually(
      async () =>
        acknowledged.requests.length >= 12 && acknowledged.documents.length >= 3 ? true : undefined,
      60_000,
      20,
    );
    process.kill(deployment.pid, "SIGKILL");
    await Promise.all(work);
    await deployment.stop();
    expect(acknowledged.documents.length).toBeGreaterThan(0);

    const restartedAt = Date.now();
    deployment = await startStandalone(dataDir, { env: FAST_MAIL });
    api = `${deployment.gateways[0]}/api/v1`;

    for (const document of acknowledged.documents) {
      const reply = await call(api, `/documents/${document.id}`, { key: key.secret });
      expect(reply.status).toBe(200);
      expect((reply.body as { sha256: string }).sha256).toBe(document.sha256);
    }
    for (const request of acknowledged.requests) {
      const reply = await call(api, `/signature-requests/${request.id}`, { key: key.secret });
      expect(reply.status).toBe(200);
      if (request.sent) expect((reply.body as { status: string }).status).toBe("sent");
      const trail = await call(api, `/signature-requests/${request.id}/audit-trail`, { key: key.secret });
      expect((trail.body as { verified: boolean }).verified).toBe(true);
    }
    // Every sent request's invitation, exactly once, within 30 s of the restart.
    const sentTo = acknowledged.requests.filter((r) => r.sent).map((r) => r.email);
    const invited = await eventually(
      async () => {
        const addresses = await invitedAddresses(dataDir);
        return sentTo.every((email) => addresses.includes(email)) ? addresses : undefined;
      },
      30_000,
      200,
    );
    expect(Date.now() - restartedAt).toBeLessThan(45_000);
    for (const email of sentTo) expect(invited.filter((address) => address === email)).toHaveLength(1);
    expect(new Set(invited).size).toBe(invited.length);
  }, 240_000);
});

describe("standalone mode: SIGKILL while signed requests are being completed", () => {
  let deployment: Deployment;

  afterAll(() => deployment?.destroy(), 120_000);

  test("after a restart every fully signed request is completed once, sealed, and e-mailed once", async () => {
    deployment = await startStandalone(undefined, { env: FAST_MAIL });
    const dataDir = deployment.dataDir;
    const key = JSON.parse((await deployment.cli("keys", "create", "--name", "seal-crash")).stdout) as {
      secret: string;
    };
    let gateway = deployment.gateways[0] as string;
    const uploaded = await call(`${gateway}/api/v1`, "/documents/upload?filename=crash.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(3),
      headers: { "content-type": "application/pdf" },
    });
    const documentId = (uploaded.body as { id: string }).id;
    const signers = Array.from({ length: 4 }, (_, i) => `sealer-${i}@crash.example`);
    const requestIds: string[] = [];
    for (const email of signers) {
      const created = await call(`${gateway}/api/v1`, "/signature-requests", {
        key: key.secret,
        method: "POST",
        json: {
          title: "Sealed under fire",
          documentIds: [documentId],
          fields: [{ type: "signature", role: "Signer", page: 1, x: 50, y: 600, width: 150, height: 40 }],
          recipients: [{ name: "S", email, role: "Signer" }],
          send: true,
        },
      });
      requestIds.push((created.body as { id: string }).id);
    }
    // Every signer signs; the process dies while their completions are queued or being sealed.
    for (const email of signers) {
      const link = await eventually(
        async () => (await outboxMails(dataDir)).find((m) => m.to === email)?.link,
      );
      const browser = new SignerBrowser(gateway);
      await browser.open(link);
      const field = ((await browser.call("/sign/api/session")).body as { fields: { id: string }[] })
        .fields[0];
      const signed = await browser.call("/sign/api/submit", {
        consent: true,
        values: { [field?.id as string]: { kind: "typed", text: "S" } },
      });
      expect(signed.status).toBe(200);
    }
    process.kill(deployment.pid, "SIGKILL");
    await deployment.stop();

    deployment = await startStandalone(dataDir, { env: FAST_MAIL });
    gateway = deployment.gateways[0] as string;
    for (const id of requestIds) {
      const done = await eventually(
        async () => {
          const got = await call(`${gateway}/api/v1`, `/signature-requests/${id}`, { key: key.secret });
          const body = got.body as { status: string; signedDocumentId: string };
          return body.status === "completed" ? body : undefined;
        },
        60_000,
        200,
      );
      const sealed = await fetch(`${gateway}/api/v1/documents/${done.signedDocumentId}/download`, {
        headers: { authorization: `Bearer ${key.secret}` },
      });
      expect(await pdfsig(new Uint8Array(await sealed.arrayBuffer()))).toContain("Signature is Valid.");
    }
    const listed = await call(`${gateway}/api/v1`, "/documents?pageSize=100", { key: key.secret });
    const kinds = (listed.body as { items: { kind: string }[] }).items.map((d) => d.kind);
    expect(kinds.filter((kind) => kind === "signed")).toHaveLength(requestIds.length);
    const copies = await eventually(
      async () => {
        const mails = (await outboxMails(dataDir)).filter(
          (m) => m.subject === "Completed: \u2068Sealed under fire\u2069",
        );
        return mails.length >= signers.length ? mails : undefined;
      },
      30_000,
      200,
    );
    expect(copies.map((m) => m.to).sort()).toEqual([...signers].sort());
  }, 240_000);
});
