/**
 * The origins whose pages may show a workspace's signing page in an iframe, read and replaced with
 * an API key. The console's Settings → Developer → Embedding uses its own routes, for Organization
 * Admins only (console/embedding-settings.ts).
 */
import type { Client } from "@connectrpc/connect";
import type {
  RequestsService,
  EmbeddingSettings as StoredSettings,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { z } from "zod";
import { EmbeddingSettings } from "../contract/signature-requests.js";
import { ok, type PublicApi } from "../public-api.js";
import { SETTINGS_PROBLEMS } from "./request-settings.js";

export const GET_EMBEDDING = {
  summary: "Get the embedding origins",
  description:
    "The origins whose pages may show this workspace's signing page in an iframe: an embedded signing URL is made for one of them (`frameOrigin`).",
  tag: "Signature requests",
  scope: "requests:read",
  answers: { 200: { description: "The settings in force.", schema: EmbeddingSettings } },
  problems: [...SETTINGS_PROBLEMS],
} as const;

export const PUT_EMBEDDING = {
  summary: "Replace the embedding origins",
  description:
    "Replaces the list (422 naming each entry that is not an https origin alone, or is listed twice). URLs already made for an origin left out still open in its frame until they expire (5 minutes); no new one is made for it. Each origin is kept as the browser compares it: lower case, without a trailing slash.",
  tag: "Signature requests",
  scope: "settings:manage",
  body: EmbeddingSettings,
  answers: { 200: { description: "The settings as kept.", schema: EmbeddingSettings } },
  problems: [...SETTINGS_PROBLEMS, 413, 415, 422],
} as const;

export function embeddingJson(settings: StoredSettings | undefined): z.infer<typeof EmbeddingSettings> {
  if (!settings) throw new Error("the requests service answered without embedding settings");
  return { frameOrigins: settings.frameOrigins };
}

export function embeddingSettingsRoutes(api: PublicApi, requests: Client<typeof RequestsService>): void {
  api.route(
    "get",
    "/embedding-settings",
    { ...GET_EMBEDDING, problems: [...GET_EMBEDDING.problems] },
    async ({ workspaceId }) =>
      ok(embeddingJson((await requests.getEmbeddingSettings({ workspaceId })).settings)),
    { inConsole: false },
  );
  api.route(
    "put",
    "/embedding-settings",
    { ...PUT_EMBEDDING, problems: [...PUT_EMBEDDING.problems] },
    async ({ workspaceId, body }) =>
      ok(embeddingJson((await requests.updateEmbeddingSettings({ workspaceId, settings: body })).settings)),
    { inConsole: false },
  );
}
