/**
 * A workspace's defaults for its new signature requests (reminder schedule, expiry warning), read
 * and replaced with an API key. The console's Settings → Requests uses its own routes, for
 * Organization Admins only (console/request-settings.ts).
 */
import type { Client } from "@connectrpc/connect";
import type {
  RequestsService,
  RequestSettings as StoredSettings,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { z } from "zod";
import { RequestSettings } from "../contract/signature-requests.js";
import { ok, type PublicApi } from "../public-api.js";

export const SETTINGS_PROBLEMS = [400, 401, 403, 404, 429, 500, 503] as const;

export const GET_SETTINGS = {
  summary: "Get the defaults for new requests",
  description: "The reminder schedule a new request gets when it names none, and the warning before expiry.",
  tag: "Signature requests",
  answers: { 200: { description: "The settings in force.", schema: RequestSettings } },
  problems: [...SETTINGS_PROBLEMS],
} as const;

export const PUT_SETTINGS = {
  summary: "Replace the defaults for new requests",
  description:
    "Requests made from now on get them; requests already made keep the schedule they were made with. Each value is a whole number of days from 0 (never) to 30 (422 naming it otherwise).",
  tag: "Signature requests",
  body: RequestSettings,
  answers: { 200: { description: "The settings as kept.", schema: RequestSettings } },
  problems: [...SETTINGS_PROBLEMS, 413, 415, 422],
} as const;

export function settingsJson(settings: StoredSettings | undefined): z.infer<typeof RequestSettings> {
  if (!settings) throw new Error("the requests service answered without settings");
  return { reminderEveryDays: settings.reminderEveryDays, expiryWarningDays: settings.expiryWarningDays };
}

export function requestSettingsRoutes(api: PublicApi, requests: Client<typeof RequestsService>): void {
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
    async ({ workspaceId, body }) =>
      ok(settingsJson((await requests.updateRequestSettings({ workspaceId, settings: body })).settings)),
    { inConsole: false },
  );
}
