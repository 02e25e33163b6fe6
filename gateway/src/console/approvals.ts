/**
 * A person's approval of what an agent's API key proposed (docs/api.md "Agents' keys"), behind a
 * console session: an Organization Admin — or the member the workspace's request settings name as
 * its approver — approves a request awaiting approval, and it is sent as they sent it, or rejects
 * it, saying why. There is no such route for API keys: no key can approve what a key proposed.
 */
import type { Session } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { Request, Response, Router } from "express";
import { z } from "zod";
import { ApprovalRights, WorkspaceParams } from "../contract/console.js";
import { EmptyInput, RequestIdParams, SignatureRequest } from "../contract/signature-requests.js";
import { text } from "../contract/values.js";
import { ApiProblem } from "../problems.js";
import { actorOf } from "../public-api.js";
import { signatureRequestJson } from "../routes/signature-request-json.js";
import type { ConsoleWorkspace } from "./session.js";
import {
  FORM_BODY,
  type WorkspaceRoutesOptions,
  workspaceIdOf,
  workspaceRouter,
} from "./workspace-router.js";

const TAG = "Console: approvals";
const PROBLEMS = [400, 401, 403, 404, 409, 413, 415, 422, 429, 500, 503] as const;

const RejectionInput = z
  .strictObject({
    reason: text().meta({
      description: "Why, 1 to 500 characters: the audit trail and the request keep it.",
    }),
  })
  .meta({ id: "RejectionInput" });

export function approvalRoutes({
  requests,
  contract,
}: Pick<WorkspaceRoutesOptions, "requests" | "contract">): Router {
  const routes = workspaceRouter(contract, FORM_BODY);

  /** Whether the session's user may approve in this workspace, and who besides the admins may. */
  const rightsOf = async (res: Response) => {
    const workspace = res.locals.workspace as ConsoleWorkspace;
    const { settings } = await requests.getRequestSettings({ workspaceId: workspace.id });
    const approverUserId = settings?.approverUserId ?? "";
    const userId = (res.locals.session as Session).userId;
    return {
      mayApprove: workspace.role === "org_admin" || (approverUserId !== "" && approverUserId === userId),
      approverUserId: approverUserId || null,
    };
  };
  const requireApprover = async (_req: Request, res: Response) => {
    if (!(await rightsOf(res)).mayApprove) {
      throw new ApiProblem(
        "forbidden",
        "only an Organization Admin, or the member the workspace names as its approver, can approve or reject what an agent proposed",
      );
    }
  };

  routes.on(
    "get",
    "/approval-rights",
    {
      summary: "Whether the user may approve what agents' keys propose",
      tag: TAG,
      params: WorkspaceParams,
      answers: {
        200: {
          description: "The user's right, and the approver besides the admins.",
          schema: ApprovalRights,
        },
      },
      problems: [401, 404, 429, 500, 503],
    },
    async ({ res }) => {
      res.json(await rightsOf(res));
    },
  );

  routes.on(
    "post",
    "/signature-requests/:requestId/approve",
    {
      summary: "Approve a proposed request: it is sent",
      description:
        "For a request awaiting approval (409 otherwise): it is sent as the approver sent it; the audit trail records the proposal by the agent's key, the approval and the sending by this user.",
      tag: TAG,
      params: WorkspaceParams.extend(RequestIdParams.shape),
      body: EmptyInput,
      answers: { 200: { description: "The request, now sent.", schema: SignatureRequest } },
      problems: [...PROBLEMS],
    },
    async ({ req, res, params }) => {
      await requireApprover(req, res);
      const { signatureRequest } = await requests.approveSignatureRequest({
        workspaceId: workspaceIdOf(res),
        requestId: params.requestId,
        actor: actorOf(req, res),
      });
      res.json(signatureRequestJson(signatureRequest));
    },
  );

  routes.on(
    "post",
    "/signature-requests/:requestId/reject",
    {
      summary: "Reject a proposed request: it is cancelled unsent",
      description: "For a request awaiting approval (409 otherwise). No recipient ever hears of it.",
      tag: TAG,
      params: WorkspaceParams.extend(RequestIdParams.shape),
      body: RejectionInput,
      answers: { 200: { description: "The request, now cancelled.", schema: SignatureRequest } },
      problems: [...PROBLEMS],
    },
    async ({ req, res, params, body }) => {
      await requireApprover(req, res);
      const { signatureRequest } = await requests.rejectSignatureRequest({
        workspaceId: workspaceIdOf(res),
        requestId: params.requestId,
        reason: body.reason,
        actor: actorOf(req, res),
      });
      res.json(signatureRequestJson(signatureRequest));
    },
  );
  return routes.router;
}
