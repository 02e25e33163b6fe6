/**
 * An upload that is converted has the converter's whole time limit on top of the request's own
 * deadline: a Word document LibreOffice takes longer over than a request may last (but less than the
 * conversion's limit) is answered with its PDF, not cut off at the gateway. The standalone
 * composition runs in this process, with a request deadline of 2 s so that a real, slow document
 * shows it.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findLibreOffice } from "@countersign/documents";
import { createLogger } from "@countersign/kit";
import { type Standalone, startStandalone } from "../deploy/local/src/compose-standalone.js";
import { ConsoleClient } from "./support/http.js";
import { makeDocx } from "./support/office-documents.js";

const ADMIN = { email: "admin@example.com", password: "a-long-admin-password" };
const REQUEST_TIMEOUT_MS = 2000;
const withLibreOffice = findLibreOffice() ? describe : describe.skip;

withLibreOffice("an upload's deadline", () => {
  let dataDir: string;
  let app: Standalone;
  let key: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "countersign-upload-deadline-"));
    app = await startStandalone({
      dataDir,
      port: 0,
      host: "127.0.0.1",
      adminEmail: ADMIN.email,
      adminPassword: ADMIN.password,
      loggerFor: (name) => createLogger({ name, level: "silent" }),
      announce: () => {},
      limits: { requestTimeoutMs: REQUEST_TIMEOUT_MS },
      // A long document, laid out to some 1,300 pages.
      documents: { conversionTimeoutMs: 120_000, maxPages: 5000 },
    });
    const admin = new ConsoleClient(app.gatewayUrl);
    const login = await admin.logIn(ADMIN.email, ADMIN.password);
    const workspaceId = (login.body as { workspaces: { id: string }[] }).workspaces[0]?.id as string;
    const created = await admin.call(`/console/api/workspaces/${workspaceId}/api-keys`, {
      method: "POST",
      json: { name: "deadline" },
    });
    key = (created.body as { secret: string }).secret;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  test("a document that takes longer to convert than a request may last, within the conversion's limit, is converted and answered", async () => {
    // 20,000 paragraphs: LibreOffice lays them out in 9 s on an idle 2-core machine, 20 s on a busy one.
    const long = makeDocx({
      paragraphs: Array.from(
        { length: 20_000 },
        (_, i) => `Clause ${i + 1}. ${"lorem ipsum dolor sit amet ".repeat(10)}`,
      ),
    });
    const form = new FormData();
    form.append(
      "file",
      new Blob([long], { type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" }),
      "long.docx",
    );
    const started = performance.now();
    const res = await fetch(`${app.gatewayUrl}/api/v1/documents/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    const took = performance.now() - started;
    expect([res.status, await res.text()]).toEqual([201, expect.stringContaining('"filename":"long.pdf"')]);
    // Longer than the request's own deadline: the upload's made room for the conversion.
    expect(took).toBeGreaterThan(REQUEST_TIMEOUT_MS);
  }, 150_000);
});
