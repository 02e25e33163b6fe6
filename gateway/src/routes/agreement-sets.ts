/** Agreement sets over HTTP: create from requests of the workspace, get with the derived status. */
import type { Client } from "@connectrpc/connect";
import type { RequestsService } from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { PublicApi } from "../public-api.js";
import { readAgreementSetBody } from "./signature-request-body.js";
import { agreementSetJson } from "./signature-request-json.js";
import { actorOf } from "./signature-requests.js";

export function agreementSetRoutes(api: PublicApi, requests: Client<typeof RequestsService>): void {
  api.route("post", "/agreement-sets", async (req, res, workspaceId) => {
    const body = readAgreementSetBody(req.body);
    const { agreementSet } = await requests.createAgreementSet({
      workspaceId,
      ...body,
      actor: actorOf(req, res),
    });
    res.status(201).json(agreementSetJson(agreementSet));
  });

  api.route("get", "/agreement-sets/:agreementSetId", async (req, res, workspaceId) => {
    const { agreementSet } = await requests.getAgreementSet({
      workspaceId,
      agreementSetId: req.params.agreementSetId as string,
    });
    res.json(agreementSetJson(agreementSet));
  });
}
