import { expiryWarning } from "./seal-expiry";

const now = new Date("2026-11-27T12:00:00Z");
const inDays = (days: number) => new Date(now.getTime() + days * 24 * 3600 * 1000).toISOString();

test("a seal certificate is warned about from 30 days before it expires, and is an error once it has", () => {
  expect([
    expiryWarning(inDays(31), now, false)?.tone,
    expiryWarning(inDays(30), now, false)?.tone,
    expiryWarning(inDays(0.5), now, false)?.tone,
    expiryWarning(inDays(-1), now, false)?.tone,
  ]).toEqual([undefined, "warning", "warning", "error"]);
  expect(expiryWarning(inDays(12), now, false)?.text).toMatch(/^It expires in 12 days, on /);
  expect(expiryWarning(inDays(0.5), now, false)?.text).toMatch(/^It expires in 1 day, on /);
});

test("the warning says who replaces the certificate: the workspace's own is uploaded here, the deployment's is the operator's", () => {
  expect(expiryWarning(inDays(12), now, true)?.text).toContain("Upload its replacement below before then");
  expect(expiryWarning(inDays(12), now, false)?.text).toContain(
    "Ask the operator to renew the deployment's (COUNTERSIGN_SEAL_P12), or upload this workspace's own below",
  );
});
