/**
 * What a signer feels on a phone: Lighthouse's mobile run (simulated slow 4G, 4× slower processor)
 * in Debian's Chromium, over the signing page of a 10-page contract opened from its signing link,
 * and over the console's log-in page. Lighthouse runs through npx at a pinned version, as the
 * formatter and buf do: it is the benchmark's alone, and its hundreds of packages would otherwise be
 * installed for every test run.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { CHROMIUM, CHROMIUM_FLAGS } from "../support/browser.js";
import type { Deployment } from "../support/deployments.js";
import { embeddedSigningLink } from "../support/embedded-signer.js";
import { makeContractPdf } from "../support/pdfs.js";

const run = promisify(execFile);
export const LIGHTHOUSE_VERSION = "13.5.0";

export interface PageFigures {
  /** Lighthouse's performance score, 0–100. */
  score: number;
  firstPaintMs: number;
  largestPaintMs: number;
  totalBlockingMs: number;
  /** Compressed script the page fetched to show its first page: the app and pdf.js (KB). */
  scriptKb: number;
}

export interface PhoneFigures {
  signing: PageFigures;
  consoleLogIn: PageFigures;
}

interface LighthouseReport {
  categories: { performance: { score: number } };
  audits: Record<
    string,
    { numericValue?: number; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
  >;
}

async function lighthouse(url: string): Promise<PageFigures> {
  const { stdout } = await run(
    "npx",
    [
      "--yes",
      `lighthouse@${LIGHTHOUSE_VERSION}`,
      url,
      "--output=json",
      "--output-path=stdout",
      "--quiet",
      "--only-categories=performance",
      `--chrome-flags=${CHROMIUM_FLAGS.join(" ")}`,
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, maxBuffer: 256 * 2 ** 20 },
  );
  const report = JSON.parse(stdout) as LighthouseReport;
  const audit = (name: string) => Math.round(report.audits[name]?.numericValue ?? Number.NaN);
  const scripts = (report.audits["network-requests"]?.details?.items ?? []).filter(
    (item) => item.resourceType === "Script",
  );
  return {
    score: Math.round(report.categories.performance.score * 100),
    firstPaintMs: audit("first-contentful-paint"),
    largestPaintMs: audit("largest-contentful-paint"),
    totalBlockingMs: audit("total-blocking-time"),
    scriptKb: Math.round(scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0) / 1024),
  };
}

export async function measurePhonePages(deployment: Deployment, key: string): Promise<PhoneFigures> {
  if (!existsSync(CHROMIUM)) throw new Error(`Lighthouse drives ${CHROMIUM}: apt-get install -y chromium`);
  return {
    signing: await lighthouse(
      (
        await embeddedSigningLink(deployment.gateways[0] as string, key, {
          pdf: await makeContractPdf(10),
          fields: [{ type: "signature", page: 10, x: 60, y: 600, width: 180, height: 40 }],
        })
      ).url,
    ),
    consoleLogIn: await lighthouse(`${deployment.gateways[0]}/console/login`),
  };
}
