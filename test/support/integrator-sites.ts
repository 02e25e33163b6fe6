/**
 * An integrator's app and our service as a browser meets them between real sites: the service behind
 * TLS at sign.countersign.test (a proxy standing for the ingress) in front of a standalone deployment
 * whose public URL it is, the integrator's app at app.integrator.test and a stranger's site, both
 * answering the host page they are given; a key of the deployment's workspace; and a browser with
 * third-party cookies blocked that trusts the sites' certificate, as one trusted by the machine.
 */
import { mkdir } from "node:fs/promises";
import type { ServerResponse } from "node:http";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type Deployment, REPO, startStandalone } from "./deployments.js";
import { eventually } from "./http.js";
import { startTlsSites, type TlsSites } from "./tls-sites.js";

export const ARTIFACTS = join(REPO, "test", "artifacts");
export const SERVICE = "sign.countersign.test";
export const APP = "app.integrator.test";
export const STRANGER = "pages.stranger.test";

/** A message of ours a host page kept, with the origin it came from. */
export interface Heard {
  origin: string;
  type: string;
  [key: string]: unknown;
}

export interface IntegratorSites {
  sites: TlsSites;
  deployment: Deployment;
  browser: Browser;
  /** The deployment's own address, for the API. */
  gateway: string;
  key: string;
  accountId: string;
  newContext(options?: Parameters<Browser["newContext"]>[0]): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startIntegratorSites(hostPage: string): Promise<IntegratorSites> {
  await mkdir(ARTIFACTS, { recursive: true });
  const sites = await startTlsSites([SERVICE, APP, STRANGER]);
  const servePage = (_req: unknown, res: ServerResponse) =>
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(hostPage);
  sites.serve(APP, servePage);
  sites.serve(STRANGER, servePage);
  const deployment = await startStandalone(undefined, {
    env: { COUNTERSIGN_PUBLIC_URL: sites.origin(SERVICE) },
  });
  const gateway = deployment.gateways[0] as string;
  sites.proxy(SERVICE, () => gateway);
  const { secret: key, accountId } = JSON.parse(
    (await deployment.cli("keys", "create", "--name", "embedding")).stdout,
  ) as { secret: string; accountId: string };
  const browser = await sites.launchBrowser();
  return {
    sites,
    deployment,
    browser,
    gateway,
    key,
    accountId,
    newContext: (options = {}) => browser.newContext({ ignoreHTTPSErrors: true, ...options }),
    async close() {
      await browser.close();
      await deployment.destroy();
      await sites.close();
    },
  };
}

// The suites compile without the DOM's types: what runs in the page is written as it would be there.
export const heard = (page: Page) => page.evaluate<Heard[]>("window.heard");

/** The first message of a type the host page heard, waited for. */
export function heardOf(page: Page, type: string): Promise<Heard> {
  return eventually(async () => (await heard(page)).find((m) => m.type === type), 30_000, 100);
}
