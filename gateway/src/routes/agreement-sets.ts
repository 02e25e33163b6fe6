/** Agreement sets over HTTP: create from requests of the workspace, get with the derived status. */
import type { Client } from "@connectrpc/connect";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { AgreementSet, AgreementSetIdParams, AgreementSetInput } from "../contract/agreement-sets.js";
import { created, ok, type PublicApi } from "../public-api.js";
import { agreementSetJson } from "./signature-request-json.js";

export function agreementSetRoutes(api: PublicApi, requests: Client<typeof RequestsService>): void {
  api.route(
    "post",
    "/agreement-sets",
    {
      summary: "Create an agreement set",
      tag: "Agreement sets",
      scope: "requests:write",
      dryRun: true,
      body: AgreementSetInput,
      answers: { 201: { description: "The set with its requests' statuses.", schema: AgreementSet } },
      problems: [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503],
    },
    async ({ actor, workspaceId, body, dryRun }) => {
      const { agreementSet } = await requests.createAgreementSet({
        workspaceId,
        ...body,
        actor,
        validateOnly: dryRun ?? false,
      });
      return created(agreementSetJson(agreementSet));
    },
  );

  api.route(
    "get",
    "/agreement-sets/:agreementSetId",
    {
      summary: "Get an agreement set",
      tag: "Agreement sets",
      scope: "requests:read",
      params: AgreementSetIdParams,
      answers: { 200: { description: "The set with its requests' statuses.", schema: AgreementSet } },
      problems: [400, 401, 403, 404, 429, 500, 503],
    },
    async ({ workspaceId, params }) => {
      const { agreementSet } = await requests.getAgreementSet({ workspaceId, ...params });
      return ok(agreementSetJson(agreementSet));
    },
  );
}
