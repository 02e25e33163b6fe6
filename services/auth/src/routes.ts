/** Translates AuthService RPCs into calls on the domain modules; nothing else happens here. */

import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { ACCESS_TOKEN_PATTERN, VIEW_CREDENTIAL_PATTERN } from "@countersign/domain";
import { AuthService, StoredResponseSchema } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import type { Accounts } from "./accounts.js";
import type { ApiCallRecords } from "./api-calls.js";
import type { ApiKeys } from "./api-keys.js";
import type { EmbeddedViews } from "./embedded-views.js";
import type { IdempotencyKeys } from "./idempotency-keys.js";
import type { Integrations } from "./integrations.js";
import type { SingleSignOn } from "./single-sign-on.js";
import type { Team } from "./team.js";

export interface AuthDomain {
  accounts: Accounts;
  apiKeys: ApiKeys;
  apiCalls: ApiCallRecords;
  embeddedViews: EmbeddedViews;
  idempotencyKeys: IdempotencyKeys;
  integrations: Integrations;
  singleSignOn: SingleSignOn;
  team: Team;
}

export function authRoutes({
  accounts,
  apiKeys,
  apiCalls,
  embeddedViews,
  idempotencyKeys,
  integrations,
  singleSignOn,
  team,
}: AuthDomain) {
  const impl: ServiceImpl<typeof AuthService> = {
    createWorkspace: async (req) => ({
      workspace: await accounts.createWorkspace(req.name, !req.apiAccessDisabled),
    }),
    listWorkspaces: async () => ({ workspaces: await accounts.listWorkspaces() }),
    getWorkspace: async (req) => ({ workspace: await accounts.getWorkspace(req.workspaceId) }),
    updateWorkspace: async (req) => ({
      workspace: await accounts.updateWorkspace(
        req.workspaceId,
        { name: req.name, apiAccessEnabled: req.apiAccessEnabled },
        req.actorUserId,
      ),
    }),
    addMember: (req) =>
      accounts.addMember(req.workspaceId, req.email, req.role, req.password, req.actorUserId),
    listMembers: async (req) => ({ members: await accounts.listMembers(req.workspaceId) }),
    updateMember: async (req) => ({
      member: await team.updateMember(req.workspaceId, req.userId, req.role, req.actorUserId),
    }),
    removeMember: async (req) => {
      await team.removeMember(req.workspaceId, req.userId, req.actorUserId);
      return {};
    },
    inviteMember: async (req) => ({
      invitation: await team.invite(req.workspaceId, req.email, req.role, req.actorUserId),
    }),
    listInvitations: async (req) => ({ invitations: await team.listInvitations(req.workspaceId) }),
    revokeInvitation: async (req) => {
      await team.revokeInvitation(req.workspaceId, req.invitationId, req.actorUserId);
      return {};
    },
    getInvitation: (req) => team.getInvitation(req.token),
    acceptInvitation: async (req) => {
      const { token, expiresAt, session } = await team.acceptInvitation(
        req.token,
        req.password,
        req.clientAddress,
      );
      return { token, expireTime: timestampFromDate(expiresAt), session };
    },
    listAuditEntries: async (req) => ({ entries: await team.auditEntries(req.workspaceId, req.limit) }),
    requestPasswordReset: async (req) => {
      await team.requestPasswordReset(req.email);
      return {};
    },
    resetPassword: async (req) => {
      await team.resetPassword(req.token, req.password);
      return {};
    },
    createSession: async (req) => {
      const { token, expiresAt, session } = await accounts.createSession(
        req.email,
        req.password,
        req.clientAddress,
      );
      return { token, expireTime: timestampFromDate(expiresAt), session };
    },
    getSession: async (req) => ({ session: await accounts.getSession(req.token) }),
    deleteSession: async (req) => {
      await accounts.deleteSession(req.token);
      return {};
    },
    getSingleSignOn: async (req) => ({ singleSignOn: await singleSignOn.get(req.workspaceId) }),
    updateSingleSignOn: async (req) => ({ singleSignOn: await singleSignOn.update(req) }),
    findSingleSignOn: async (req) => ({ workspaces: await singleSignOn.find(req.email) }),
    beginSingleSignOn: async (req) => {
      const { authorizationUrl, state, expiresAt } = await singleSignOn.begin(
        req.workspaceId,
        req.redirectUri,
      );
      return { authorizationUrl, state, expireTime: timestampFromDate(expiresAt) };
    },
    finishSingleSignOn: async (req) => {
      const finished = await singleSignOn.finish(req.state, req.callbackUrl, req.clientAddress);
      if ("refusal" in finished) {
        return {
          refusal: finished.refusal,
          refusalDetail: finished.detail,
          workspaceId: finished.workspaceId,
        };
      }
      return {
        token: finished.token,
        expireTime: timestampFromDate(finished.expiresAt),
        session: finished.session,
        workspaceId: finished.workspaceId,
      };
    },
    createApiKey: (req) =>
      apiKeys.create(req.workspaceId, {
        name: req.name,
        expiresAt: req.expireTime ? timestampDate(req.expireTime) : undefined,
        scopes: req.scopes,
        test: req.test,
        actorUserId: req.actorUserId,
      }),
    listApiKeys: async (req) => ({ keys: await apiKeys.list(req.workspaceId) }),
    deleteApiKey: async (req) => {
      await apiKeys.delete(req.workspaceId, req.keyId, req.actorUserId);
      return {};
    },
    verifyApiKey: (req) => {
      if (ACCESS_TOKEN_PATTERN.test(req.secret)) return integrations.verify(req.secret);
      if (VIEW_CREDENTIAL_PATTERN.test(req.secret)) return embeddedViews.verify(req.secret);
      return apiKeys.verify(req.secret);
    },
    createEmbeddedView: (req) => embeddedViews.create(req),
    openEmbeddedView: (req) => embeddedViews.open(req.ticket),
    createIntegration: async (req) => ({
      integration: await integrations.create(
        req.workspaceId,
        req.name,
        req.publicKeyPem,
        req.redirectUris,
        req.actorUserId,
      ),
    }),
    listIntegrations: async (req) => ({ integrations: await integrations.list(req.workspaceId) }),
    deleteIntegration: async (req) => {
      await integrations.delete(req.workspaceId, req.integrationId, req.actorUserId);
      return {};
    },
    describeConsent: (req) => integrations.describeConsent(req.integrationId, req.redirectUri, req.userId),
    grantConsent: async (req) => {
      await integrations.grantConsent(req.integrationId, req.redirectUri, req.userId, req.scopes);
      return {};
    },
    withdrawConsent: async (req) => {
      await integrations.withdrawConsent(req.workspaceId, req.integrationId, req.userId, req.actorUserId);
      return {};
    },
    exchangeJwtAssertion: (req) => integrations.exchange(req.assertion, req.audience),
    getUserInfo: (req) => integrations.userInfo(req.accessToken),
    listRecentErrors: async (req) => ({ errors: await apiCalls.recentErrors(req.workspaceId, req.limit) }),
    getApiUsage: (req) => apiCalls.usage(req.workspaceId, req.fromDay, req.toDay),
    claimIdempotencyKey: (req) =>
      idempotencyKeys.claim(req.workspaceId, req.key, req.fingerprint, req.claimSeconds),
    completeIdempotencyKey: async (req) => {
      await idempotencyKeys.complete(
        req.workspaceId,
        req.key,
        req.fingerprint,
        req.response ?? create(StoredResponseSchema),
      );
      return {};
    },
    releaseIdempotencyKey: async (req) => {
      await idempotencyKeys.release(req.workspaceId, req.key, req.fingerprint);
      return {};
    },
  };
  return (router: ConnectRouter) => router.service(AuthService, impl);
}
