/**
 * A workspace's branding, read and replaced with an API key; the console's Settings → Branding uses
 * its own routes, for Organization Admins only (console/branding.ts). The logo itself is served to
 * signers' browsers and mail clients at an address naming its digest (`logoPath`, served by
 * signing/signing-routes.ts).
 */
import type { Client } from "@connectrpc/connect";
import { logoPath } from "@countersign/domain";
import type {
  RequestsService,
  Branding as StoredBranding,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { z } from "zod";
import { Branding, BrandingInput, BrandingLogoInput } from "../contract/branding.js";
import { isoOrNull } from "../json-time.js";
import { ok, type PublicApi } from "../public-api.js";
import { SETTINGS_PROBLEMS } from "./request-settings.js";

const TAG = "Signature requests";

export const GET_BRANDING = {
  summary: "Get the branding",
  description:
    "How this workspace's signing pages and e-mails look to its recipients: ours until it sets its own.",
  tag: TAG,
  scope: "requests:read",
  answers: { 200: { description: "The branding in force.", schema: Branding } },
  problems: [...SETTINGS_PROBLEMS],
} as const;

export const PUT_BRANDING = {
  summary: "Replace the colour, the name setting and the e-mails' sender name",
  description:
    'Signing pages opened and e-mails sent from now on show them; the logo stays as it is (`PUT /branding/logo`). A colour that is not `#rrggbb`, or that white text does not read on, is 422 naming `accentColor`; a sender name on more than one line or holding "@" is 422 naming `emailSenderName`; a sending address that is not one address at a domain is 422 naming `emailSenderAddress`. Left out, `emailSenderName` and `emailSenderAddress` are cleared. A sending address is used once its domain is verified (`POST /branding/email-domain/verify`).',
  tag: TAG,
  scope: "settings:manage",
  body: BrandingInput,
  answers: { 200: { description: "The branding as kept.", schema: Branding } },
  problems: [...SETTINGS_PROBLEMS, 413, 415, 422],
} as const;

export const PUT_LOGO = {
  summary: "Replace the logo",
  description:
    "The image's type is read from its bytes. Anything but a PNG or JPEG within the sizes `image` states is 422 naming `logo`, with the reason.",
  tag: TAG,
  scope: "settings:manage",
  body: BrandingLogoInput,
  answers: { 200: { description: "The branding with its new logo.", schema: Branding } },
  problems: [...SETTINGS_PROBLEMS, 413, 415, 422],
} as const;

export const VERIFY_EMAIL_DOMAIN = {
  summary: "Verify the sending address's domain",
  description:
    "Looks up the TXT record `emailDomain` names; found, e-mails come from `emailSenderAddress` from now on. 409 when there is no sending address or the record is not there (yet), saying which; 503 when DNS did not answer in time.",
  tag: TAG,
  scope: "settings:manage",
  answers: { 200: { description: "The branding, its domain verified.", schema: Branding } },
  problems: [...SETTINGS_PROBLEMS, 409],
} as const;

export const DELETE_LOGO = {
  summary: "Remove the logo",
  description: "The header shows our name again, or the sender's when ours is hidden.",
  tag: TAG,
  scope: "settings:manage",
  answers: { 200: { description: "The branding without a logo.", schema: Branding } },
  problems: [...SETTINGS_PROBLEMS],
} as const;

export function brandingJson(
  workspaceId: string,
  branding: StoredBranding | undefined,
  publicUrl: string,
): z.infer<typeof Branding> {
  if (!branding) throw new Error("the requests service answered without branding");
  return {
    accentColor: branding.accentColor || null,
    hideProductName: branding.hideProductName,
    emailSenderName: branding.emailSenderName || null,
    emailSenderAddress: branding.emailSenderAddress || null,
    emailDomain: branding.emailDomain
      ? {
          domain: branding.emailDomain.domain,
          txtName: branding.emailDomain.txtName,
          txtValue: branding.emailDomain.txtValue,
          verified: branding.emailDomain.verifyTime !== undefined,
          verifiedAt: isoOrNull(branding.emailDomain.verifyTime),
          relay: branding.emailDomain.relay || null,
          bounceAddress: branding.emailDomain.bounceAddress,
        }
      : null,
    logoUrl: branding.logoSha256 ? `${publicUrl}${logoPath(workspaceId, branding.logoSha256)}` : null,
  };
}

/** What each branding operation does, whichever family calls it. */
export function brandingActions(requests: Client<typeof RequestsService>, publicUrl: string) {
  const json = (workspaceId: string, answer: { branding?: StoredBranding }) =>
    brandingJson(workspaceId, answer.branding, publicUrl);
  return {
    get: async (workspaceId: string) => json(workspaceId, await requests.getBranding({ workspaceId })),
    put: async (workspaceId: string, body: z.infer<typeof BrandingInput>) =>
      json(
        workspaceId,
        await requests.updateBranding({
          workspaceId,
          branding: {
            accentColor: body.accentColor ?? "",
            hideProductName: body.hideProductName,
            emailSenderName: body.emailSenderName ?? "",
            emailSenderAddress: body.emailSenderAddress ?? "",
          },
        }),
      ),
    putLogo: async (workspaceId: string, body: z.infer<typeof BrandingLogoInput>) =>
      json(
        workspaceId,
        await requests.setBrandingLogo({ workspaceId, logo: { content: Buffer.from(body.image, "base64") } }),
      ),
    deleteLogo: async (workspaceId: string) =>
      json(workspaceId, await requests.setBrandingLogo({ workspaceId })),
    verifyEmailDomain: async (workspaceId: string) =>
      json(workspaceId, await requests.verifyEmailDomain({ workspaceId })),
  };
}

export function brandingRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  publicUrl: string,
): void {
  const act = brandingActions(requests, publicUrl);
  const keyed = { inConsole: false };
  api.route(
    "get",
    "/branding",
    { ...GET_BRANDING, problems: [...GET_BRANDING.problems] },
    async (c) => ok(await act.get(c.workspaceId)),
    keyed,
  );
  api.route(
    "put",
    "/branding",
    { ...PUT_BRANDING, problems: [...PUT_BRANDING.problems] },
    async (c) => ok(await act.put(c.workspaceId, c.body)),
    keyed,
  );
  api.route(
    "put",
    "/branding/logo",
    { ...PUT_LOGO, problems: [...PUT_LOGO.problems] },
    async (c) => ok(await act.putLogo(c.workspaceId, c.body)),
    keyed,
  );
  api.route(
    "post",
    "/branding/email-domain/verify",
    { ...VERIFY_EMAIL_DOMAIN, problems: [...VERIFY_EMAIL_DOMAIN.problems] },
    async (c) => ok(await act.verifyEmailDomain(c.workspaceId)),
    keyed,
  );
  api.route(
    "delete",
    "/branding/logo",
    { ...DELETE_LOGO, problems: [...DELETE_LOGO.problems] },
    async (c) => ok(await act.deleteLogo(c.workspaceId)),
    keyed,
  );
}
