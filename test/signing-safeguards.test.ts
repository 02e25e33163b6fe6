/**
 * The signing page's safeguards over HTTP in both modes, as a guesser meets them: wrong codes of
 * either kind count toward one lock-out that neither a right e-mailed code nor a new session's code
 * lifts, and no signer can hand their place to a co-signer.
 */
import { type Deployment, startDistributed, startStandalone } from "./support/deployments.js";
import { call, eventually } from "./support/http.js";
import { distributedInfra } from "./support/infra.js";
import { outboxMails } from "./support/outbox-mail.js";
import { makePdf } from "./support/pdfs.js";
import { SignerBrowser } from "./support/signer-browser.js";

const infra = await distributedInfra();
const modes: [string, () => Promise<Deployment>][] = [["standalone", () => startStandalone()]];
if (infra) modes.push(["distributed", () => startDistributed(infra)]);
afterAll(() => infra?.close());

interface Problem {
  errors?: { path: string; message: string }[];
}
interface Authentication {
  verified: string[];
  attemptsLeft: number;
}

describe.each(modes)("%s mode: signing safeguards", (_mode, start) => {
  let deployment: Deployment;
  let gateway: string;
  let key: { secret: string };
  const api = () => `${gateway}/api/v1`;

  beforeAll(async () => {
    deployment = await start();
    gateway = deployment.gateways[0] as string;
    key = JSON.parse((await deployment.cli("keys", "create", "--name", "safeguards")).stdout);
  }, 180_000);
  afterAll(() => deployment?.destroy());

  /** A lease both parties sign at once, the tenant asked for what `tenant` says. */
  async function sentLease(tag: string, tenant: Record<string, unknown> = {}) {
    const upload = await call(api(), "/documents/upload?filename=lease.pdf", {
      key: key.secret,
      method: "POST",
      body: await makePdf(1),
      headers: { "content-type": "application/pdf" },
    });
    const created = await call(api(), "/signature-requests", {
      key: key.secret,
      method: "POST",
      json: {
        title: `Lease ${tag}`,
        documentIds: [(upload.body as { id: string }).id],
        fields: [
          { type: "signature", role: "Tenant", page: 1, x: 60, y: 600, width: 180, height: 40 },
          { type: "signature", role: "Landlord", page: 1, x: 300, y: 600, width: 180, height: 40 },
        ],
        recipients: [
          { name: "Zoë Tenant", email: `tenant.${tag}@example.com`, role: "Tenant", ...tenant },
          { name: "Lou Landlord", email: `landlord.${tag}@example.com`, role: "Landlord" },
        ],
        allowReassign: true,
        send: true,
      },
    });
    expect(created.status).toBe(201);
  }

  const mails = (to: string, subject: RegExp) =>
    outboxMails(deployment.dataDir).then((all) => all.filter((m) => m.to === to && subject.test(m.subject)));

  async function signerOf(address: string): Promise<SignerBrowser> {
    const link = await eventually(async () => (await mails(address, /./)).find((m) => m.link)?.link);
    const signer = new SignerBrowser(gateway);
    await signer.open(link as string);
    return signer;
  }

  test("a right e-mailed code lifts no wrong access code, a code asked for in a new session starts nothing again, and the fifth wrong code of either kind locks", async () => {
    const tenant = "tenant.codes@example.com";
    await sentLease("codes", { accessCode: "4821", emailCode: true });
    const signer = await signerOf(tenant);
    const verify = (codes: { accessCode?: string; emailCode?: string }) =>
      signer.call("/sign/api/verify", codes);
    for (let i = 0; i < 3; i++) expect((await verify({ accessCode: "0000" })).status).toBe(422);

    expect((await signer.call("/sign/api/code", {})).status).toBe(200);
    const code = await eventually(
      async () => /\b(\d{6})\b/.exec((await mails(tenant, /is your code/))[0]?.text ?? "")?.[1],
    );
    const passed = await verify({ emailCode: code });
    expect(passed.status).toBe(200);
    expect((passed.body as Authentication).attemptsLeft).toBe(2);

    // Another session's code, on another device, starts nothing again.
    const again = await signerOf(tenant);
    const resent = await again.call("/sign/api/code", {});
    expect(resent.status).toBe(200);
    expect((resent.body as Authentication).attemptsLeft).toBe(2);

    expect((await verify({ accessCode: "1111" })).status).toBe(422);
    const locked = await again.call("/sign/api/verify", { accessCode: "2222" });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
    expect((await verify({ accessCode: "4821" })).status).toBe(429);
  });

  test("a signer cannot assign their place to their co-signer, whatever the letter case", async () => {
    await sentLease("places");
    const tenant = await signerOf("tenant.places@example.com");
    const refused = await tenant.call("/sign/api/reassign", {
      name: "Lou",
      email: " LANDLORD.places@Example.com ",
      reason: "Lou signs for both of us",
    });
    expect(refused.status).toBe(422);
    expect((refused.body as Problem).errors).toEqual([
      {
        path: "email",
        message: "belongs to someone already on this request: give the address of someone who is not",
      },
    ]);
    const session = await tenant.call("/sign/api/session");
    expect(session.status).toBe(200);
  });
});
