/**
 * A workspace's settings for its signature requests (the reminder schedule and expiry warning new
 * requests get, the retention of every request's documents), read and replaced with an API key.
 * The console's Settings → Requests uses its own routes, for Organization Admins only
 * (console/request-settings.ts).
 */

import type { MessageInitShape } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import type { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type {
  RequestSettingsSchema,
  RequestsService,
  RequestSettings as StoredSettings,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { z } from "zod";
import { RequestSettings, RequestSettingsInForce } from "../contract/signature-requests.js";
import { ApiProblem } from "../problems.js";
import { ok, type PublicApi } from "../public-api.js";

export const SETTINGS_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

export const GET_SETTINGS = {
  summary: "Get the settings for requests",
  description:
    "The reminder schedule a new request gets when it names none, the warning before expiry, and how long ended requests' documents are kept.",
  tag: "Signature requests",
  scope: "requests:read",
  answers: { 200: { description: "The settings in force.", schema: RequestSettingsInForce } },
  problems: [...SETTINGS_PROBLEMS],
} as const;

export const PUT_SETTINGS = {
  summary: "Replace the settings for requests",
  description:
    "Replaces every setting: one left out takes its default. Requests made from now on get the schedule and warning; requests already made keep those they were made with. Each is a whole number of days from 0 (never) to 30, and `retentionDays` from 1 to 3650, and `approverUserId` a member of the workspace (422 naming the field otherwise). The retention applies to every request at once: left out (as a body written before it existed leaves it), documents are kept for good.",
  tag: "Signature requests",
  scope: "settings:manage",
  body: RequestSettings,
  answers: { 200: { description: "The settings as kept.", schema: RequestSettingsInForce } },
  problems: [...SETTINGS_PROBLEMS, 413, 415, 422],
} as const;

export function settingsJson(settings: StoredSettings | undefined): z.infer<typeof RequestSettingsInForce> {
  if (!settings) throw new Error("the requests service answered without settings");
  return {
    reminderEveryDays: settings.reminderEveryDays,
    expiryWarningDays: settings.expiryWarningDays,
    retentionDays: settings.retentionDays ?? null,
    retentionDeletesEvidence: settings.retentionDeletesEvidence,
    approverUserId: settings.approverUserId || null,
  };
}

/** The settings a body gives, as the requests service takes them: no retention unless it names one. */
export function settingsOf(
  body: z.infer<typeof RequestSettings>,
): MessageInitShape<typeof RequestSettingsSchema> {
  return {
    reminderEveryDays: body.reminderEveryDays,
    expiryWarningDays: body.expiryWarningDays,
    ...(body.retentionDays === null || body.retentionDays === undefined
      ? {}
      : { retentionDays: body.retentionDays }),
    retentionDeletesEvidence: body.retentionDeletesEvidence ?? false,
    approverUserId: body.approverUserId ?? "",
  };
}

/**
 * Replaces the settings, once a newly named approver is found to be a member of the workspace. The
 * approver already named is kept as it is, member or not: the other settings can still be saved
 * when they have left.
 */
export async function replaceSettings(
  { requests, auth }: { requests: Client<typeof RequestsService>; auth: Client<typeof AuthService> },
  workspaceId: string,
  body: z.infer<typeof RequestSettings>,
): Promise<z.infer<typeof RequestSettingsInForce>> {
  const { settings: current } = await requests.getRequestSettings({ workspaceId });
  if (body.approverUserId && body.approverUserId !== current?.approverUserId) {
    const { members } = await auth.listMembers({ workspaceId });
    if (!members.some((member) => member.userId === body.approverUserId)) {
      throw new ApiProblem("validation_failed", "the request settings are not valid: see errors", [
        { path: "approverUserId", message: "is not a member of this workspace" },
      ]);
    }
  }
  const { settings } = await requests.updateRequestSettings({ workspaceId, settings: settingsOf(body) });
  return settingsJson(settings);
}

export function requestSettingsRoutes(
  api: PublicApi,
  requests: Client<typeof RequestsService>,
  auth: Client<typeof AuthService>,
): void {
  api.route(
    "get",
    "/request-settings",
    { ...GET_SETTINGS, problems: [...GET_SETTINGS.problems] },
    async ({ workspaceId }) =>
      ok(settingsJson((await requests.getRequestSettings({ workspaceId })).settings)),
    { inConsole: false },
  );
  api.route(
    "put",
    "/request-settings",
    { ...PUT_SETTINGS, problems: [...PUT_SETTINGS.problems] },
    async ({ workspaceId, body }) => ok(await replaceSettings({ requests, auth }, workspaceId, body)),
    { inConsole: false },
  );
}
