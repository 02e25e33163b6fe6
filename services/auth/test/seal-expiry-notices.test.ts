/**
 * The e-mails that tell Organization Admins their seal certificate expires: queued from the requests
 * service's SealCertificateExpiring event, one per person and warning (however often it arrives),
 * to the admins of the workspace whose own seal it is, or of every workspace sealed with the
 * deployment's; members are not told.
 */
import { randomUUID } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { subjects } from "@countersign/domain";
import { Role } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { SealCertificateExpiringSchema } from "@countersign/gen/countersign/events/v1/completion_events_pb.js";
import { simpleParser } from "mailparser";
import { until } from "../../../test/support/service-calls.js";
import { sealExpiryEmail } from "../src/seal-expiry-notices.js";
import { PUBLIC_URL, type StartedAuth, startAuth } from "./harness.js";

let auth: StartedAuth;
let acme: string;
let beta: string;
let gamma: string;

beforeAll(async () => {
  auth = await startAuth();
  const workspace = async (name: string) =>
    (await auth.client.createWorkspace({ name })).workspace?.id as string;
  [acme, beta, gamma] = [await workspace("Acme"), await workspace("Beta"), await workspace("Gamma")];
  const member = (workspaceId: string, email: string, role: Role) =>
    auth.client.addMember({ workspaceId, email, role, password: "a-long-password" });
  await member(acme, "ada@acme.example", Role.ORG_ADMIN);
  // An existing log-in joins a second workspace without a password.
  await auth.client.addMember({ workspaceId: beta, email: "ada@acme.example", role: Role.ORG_ADMIN });
  await member(acme, "mo@acme.example", Role.MEMBER);
  await member(beta, "bo@beta.example", Role.ORG_ADMIN);
  await member(gamma, "gil@gamma.example", Role.ORG_ADMIN);
});
afterAll(() => auth.close());

beforeEach(async () => {
  await auth.module.noticesIdle();
  await auth.db.query("DELETE FROM auth_emails WHERE kind = 'seal_expiry'");
  for (const file of await readdir(auth.outboxDir)) await rm(join(auth.outboxDir, file));
});

async function sentMails() {
  await auth.module.noticesIdle();
  const files = (await readdir(auth.outboxDir)).filter((file) => file.endsWith(".eml")).sort();
  const mails = await Promise.all(
    files.map(async (file) => {
      const mail = await simpleParser(await readFile(join(auth.outboxDir, file)));
      return {
        to: mail.to && !Array.isArray(mail.to) ? mail.to.text : "",
        subject: mail.subject ?? "",
        text: mail.text ?? "",
      };
    }),
  );
  return mails.sort((a, b) => a.to.localeCompare(b.to));
}

const notAfter = new Date("2027-01-15T10:00:00Z");

async function warn(
  fields: { workspaceId: string; exceptWorkspaceIds?: string[]; thresholdDays: number },
  eventId = randomUUID(),
) {
  await auth.bus.publish(
    subjects.sealCertificateExpiring,
    toBinary(
      SealCertificateExpiringSchema,
      create(SealCertificateExpiringSchema, {
        eventId,
        subject: "CN=Acme Corp seal,O=Acme",
        sha256Fingerprint: "AB:CD",
        notAfter: timestampFromDate(notAfter),
        ...fields,
      }),
    ),
  );
  return eventId;
}

const queued = async () =>
  Number(
    (await auth.db.query<{ n: string }>("SELECT count(*) AS n FROM auth_emails WHERE kind = 'seal_expiry'"))
      .rows[0]?.n,
  );

test("a workspace's own seal warns its Organization Admins, not its members nor other workspaces, once however often the event comes", async () => {
  const eventId = await warn({ workspaceId: acme, thresholdDays: 30 });
  await until(async () => (await queued()) === 1);
  await warn({ workspaceId: acme, thresholdDays: 30 }, eventId);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const mails = await sentMails();
  expect(mails.map((m) => [m.to, m.subject])).toEqual([
    ["ada@acme.example", "Your Countersign seal certificate expires soon"],
  ]);
  expect(mails[0]?.text).toContain(
    // Each name from outside set apart in its own direction (FSI … PDI).
    "The certificate that seals the completed documents of the workspace “\u2068Acme\u2069” on Countersign expires on Jan 15, 2027.",
  );
  expect(mails[0]?.text).toContain("It is your workspace's own seal: upload its replacement");
  expect(mails[0]?.text).toContain(`Open the console: ${PUBLIC_URL}/console`);
});

test("the deployment's seal warns the admins of every workspace without its own, each once, naming their workspaces", async () => {
  await warn({ workspaceId: "", exceptWorkspaceIds: [gamma], thresholdDays: 0 });
  await until(async () => (await queued()) === 2);
  const mails = await sentMails();
  expect(mails.map((m) => [m.to, m.subject])).toEqual([
    ["ada@acme.example", "Your Countersign seal certificate has expired"],
    ["bo@beta.example", "Your Countersign seal certificate has expired"],
  ]);
  expect(mails[0]?.text).toContain(
    "of the workspaces “\u2068Acme\u2069” and “\u2068Beta\u2069” on Countersign expired on Jan 15, 2027.",
  );
  expect(mails[0]?.text).toContain(
    "It is the deployment's seal: ask the operator of this Countersign to renew it",
  );
});

test("a workspace named right to left keeps the sentence around it in order: each name is set apart", () => {
  const mail = sealExpiryEmail({
    workspaces: ["شركة أكمي", "Beta"],
    ownSeal: false,
    subject: "CN=ختم",
    notAfter,
    thresholdDays: 7,
    link: `${PUBLIC_URL}/console`,
  });
  expect(mail.text).toContain("the workspaces “\u2068شركة أكمي\u2069” and “\u2068Beta\u2069” on Countersign");
  expect(mail.text).toContain("Certificate: \u2068CN=ختم\u2069.");
  expect(mail.html).toContain("“\u2068شركة أكمي\u2069”");
});

test("the e-mail's HTML escapes what came from outside", () => {
  const mail = sealExpiryEmail({
    workspaces: ["<script>x</script>"],
    ownSeal: true,
    subject: "CN=<b>seal</b>",
    notAfter,
    thresholdDays: 7,
    link: `${PUBLIC_URL}/console`,
  });
  expect(mail.html).not.toContain("<script>");
  expect(mail.html).toContain("&lt;b&gt;seal&lt;/b&gt;");
});
