/** Translates RequestsService RPCs into calls on the domain classes. */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import {
  RequestsService,
  type SendTestEmailResponse,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { BulkSendLists } from "./bulk-send/bulk-send-lists.js";
import type { BulkSends } from "./bulk-send/bulk-sends.js";
import type { AuditReports } from "./completion/audit-reports.js";
import type { SealCertificates } from "./completion/seal-certificates.js";
import { toAuditEntry, toSignerAttachment } from "./core/messages.js";
import type { AgreementSets } from "./creation/agreement-sets.js";
import type { RequestCreation } from "./creation/request-creation.js";
import type { RequestSettingsBook } from "./creation/request-settings.js";
import type { LegalHolds } from "./retention/legal-holds.js";
import type { Proposals } from "./sending/proposals.js";
import type { Requests } from "./sending/requests.js";
import type { BrandingBook } from "./signing/branding.js";
import type { EmbeddingSettingsBook } from "./signing/embedding-settings.js";
import type { SignerAttachments } from "./signing/signer-attachments.js";
import type { SignerAuthentication } from "./signing/signer-authentication.js";
import type { SignerCopies } from "./signing/signer-copies.js";
import type { Signing } from "./signing/signing.js";
import type { SigningSessions } from "./signing/signing-sessions.js";
import type { DocumentVerification } from "./verification/document-verification.js";

/** A file drawn for the gateway (a signer's copy, an audit report) crosses to it in parts of this size. */
const FILE_CHUNK_BYTES = 1024 * 1024;

/** A drawn file as a stream answers it: its description (as `describedAs`), then its bytes in parts. */
function* fileParts<Case extends string>(describedAs: Case, file: { filename: string; bytes: Uint8Array }) {
  yield {
    part: { case: describedAs, value: { filename: file.filename, sizeBytes: BigInt(file.bytes.length) } },
  };
  for (let at = 0; at < file.bytes.length; at += FILE_CHUNK_BYTES) {
    yield { part: { case: "chunk" as const, value: file.bytes.subarray(at, at + FILE_CHUNK_BYTES) } };
  }
}

export interface RequestsDomain {
  creation: RequestCreation;
  requests: Requests;
  sessions: SigningSessions;
  signing: Signing;
  signerAuthentication: SignerAuthentication;
  signerCopies: SignerCopies;
  auditReports: AuditReports;
  requestSettings: RequestSettingsBook;
  /** The origins that may frame each workspace's signing page. */
  embeddingSettings: EmbeddingSettingsBook;
  branding: BrandingBook;
  legalHolds: LegalHolds;
  proposals: Proposals;
  signerAttachments: SignerAttachments;
  agreementSets: AgreementSets;
  verification: DocumentVerification;
  /** Sends the administrator's test e-mail (notices/mail/test-email.ts). */
  testEmail: (workspaceId: string, to: string) => Promise<SendTestEmailResponse>;
  /** The certificates each workspace's documents are sealed with. */
  sealCertificates: SealCertificates;
  bulkSends: BulkSends;
  bulkSendLists: BulkSendLists;
}

export function requestsRoutes({
  creation,
  requests,
  sessions,
  signing,
  signerAuthentication,
  signerCopies,
  auditReports,
  requestSettings,
  embeddingSettings,
  branding,
  legalHolds,
  proposals,
  signerAttachments,
  agreementSets,
  verification,
  testEmail,
  sealCertificates,
  bulkSends,
  bulkSendLists,
}: RequestsDomain) {
  const impl: ServiceImpl<typeof RequestsService> = {
    sendTestEmail: (req) => testEmail(req.workspaceId, req.to),
    getSealCertificate: async (req) => ({ certificate: await sealCertificates.get(req.workspaceId) }),
    replaceSealCertificate: async (req) => ({ certificate: await sealCertificates.replace(req) }),
    removeSealCertificate: async (req) => ({ certificate: await sealCertificates.remove(req.workspaceId) }),
    createSignatureRequest: async (req) => ({ signatureRequest: await creation.create(req) }),
    getSignatureRequest: async (req) => ({
      signatureRequest: await requests.get(req.workspaceId, req.requestId),
    }),
    listSignatureRequests: (req) =>
      requests.list(
        req.workspaceId,
        {
          status: req.status,
          statuses: req.statuses,
          changedSince: req.changedSince ? timestampDate(req.changedSince) : undefined,
          changedBefore: req.changedBefore ? timestampDate(req.changedBefore) : undefined,
          requestIds: req.requestIds,
          search: req.search,
          externalId: req.externalId,
          createdAfter: req.createdAfter ? timestampDate(req.createdAfter) : undefined,
          createdBefore: req.createdBefore ? timestampDate(req.createdBefore) : undefined,
        },
        req.pageIndex,
        req.pageSize,
        req.order,
      ),
    sendSignatureRequest: async (req) => ({
      signatureRequest: await requests.send(req.workspaceId, req.requestId, req.actor, {
        validateOnly: req.validateOnly,
        propose: req.propose,
      }),
    }),
    resendSignatureRequest: async (req) => ({
      signatureRequest: await requests.resend(req.workspaceId, req.requestId, req.actor, req.validateOnly),
    }),
    cancelSignatureRequest: async (req) => ({
      signatureRequest: await requests.cancel(
        req.workspaceId,
        req.requestId,
        req.reason,
        req.actor,
        req.validateOnly,
      ),
    }),
    updateRecipients: async (req) => ({
      signatureRequest: await requests.updateRecipients(
        req.workspaceId,
        req.requestId,
        req.changes,
        req.actor,
        req.validateOnly,
      ),
    }),
    remindRecipient: async (req) => {
      const { recipientId, remindedAt } = await requests.remind(
        req.workspaceId,
        req.recipientId,
        req.message,
        req.actor,
        req.validateOnly,
      );
      return { recipientId, remindTime: timestampFromDate(remindedAt) };
    },
    createEmbeddedSigningUrl: async (req) => {
      const { url, expiresAt } = await sessions.embeddedSigningUrl(req);
      return { url, expireTime: timestampFromDate(expiresAt) };
    },
    listSigningLinks: async (req) => ({
      links: (await requests.signingLinks(req.workspaceId, req.requestId)).map((link) => ({
        recipientId: link.recipientId,
        url: link.url,
        createTime: timestampFromDate(link.createdAt),
      })),
    }),
    openSigningLink: (req) => sessions.openLink(req.token, req.actor),
    recordSigningView: (req) => sessions.recordView(req.sessionToken, req.actor),
    getSigningSession: (req) => sessions.view(req.sessionToken),
    submitSignature: (req) =>
      signing.submit(req.sessionToken, req.consent, req.values, req.actor, {
        locale: req.locale,
        timeZone: req.timeZone,
      }),
    declineToSign: (req) => signing.decline(req.sessionToken, req.reason, req.actor),
    attachSignerFile: async (req, context) => ({
      attachment: toSignerAttachment(await signerAttachments.attach(req, context.signal)),
    }),
    getSignerCopy: async function* (req, context) {
      yield* fileParts("copy", await signerCopies.draw(req.sessionToken, context.signal));
    },
    reassignSigner: async (req) => {
      const to = { name: req.name, email: req.email, reason: req.reason };
      return { signatureRequest: (await signing.reassign(req.sessionToken, to, req.actor)).signatureRequest };
    },
    sendSigningCode: async (req) => ({
      authentication: await signerAuthentication.sendCode(req.sessionToken, req.actor),
    }),
    verifySigner: async (req) => ({
      authentication: await signerAuthentication.verify(
        req.sessionToken,
        { accessCode: req.accessCode, emailCode: req.emailCode },
        req.actor,
      ),
    }),
    getAuditTrail: async (req) => {
      const { entries, verified } = await requests.auditTrail(req.workspaceId, req.requestId);
      return { entries: entries.map(toAuditEntry), verified };
    },
    getRequestSettings: async (req) => ({ settings: await requestSettings.get(req.workspaceId) }),
    updateRequestSettings: async (req) => ({
      settings: await requestSettings.update(req.workspaceId, req.settings),
    }),
    getEmbeddingSettings: async (req) => ({ settings: await embeddingSettings.get(req.workspaceId) }),
    updateEmbeddingSettings: async (req) => ({
      settings: await embeddingSettings.update(req.workspaceId, req.settings),
    }),
    getBranding: async (req) => ({ branding: await branding.get(req.workspaceId) }),
    updateBranding: async (req) => ({ branding: await branding.update(req.workspaceId, req.branding) }),
    setBrandingLogo: async (req) => ({ branding: await branding.setLogo(req.workspaceId, req.logo) }),
    getBrandingLogo: (req) => branding.logo(req.workspaceId, req.sha256),
    verifyEmailDomain: async (req) => ({ branding: await branding.verifyEmailDomain(req.workspaceId) }),
    placeLegalHold: async (req) => ({
      signatureRequest: await legalHolds.place(req.workspaceId, req.requestId, req.reason, req.actor),
    }),
    releaseLegalHold: async (req) => ({
      signatureRequest: await legalHolds.release(req.workspaceId, req.requestId, req.actor),
    }),
    approveSignatureRequest: async (req) => ({
      signatureRequest: await proposals.approve(req.workspaceId, req.requestId, req.actor),
    }),
    rejectSignatureRequest: async (req) => ({
      signatureRequest: await proposals.reject(req.workspaceId, req.requestId, req.reason, req.actor),
    }),
    getAuditReport: async function* (req, context) {
      yield* fileParts("report", await auditReports.draw(req.workspaceId, req.requestId, context.signal));
    },
    createAgreementSet: async (req) => ({
      agreementSet: await agreementSets.create(
        req.workspaceId,
        req.name,
        req.requestIds,
        req.actor,
        req.validateOnly,
      ),
    }),
    getAgreementSet: async (req) => ({
      agreementSet: await agreementSets.get(req.workspaceId, req.agreementSetId),
    }),
    verifyDocument: async (req, context) => ({
      report: await verification.verify(req.pdf, req.party, context.signal),
    }),
    startBulkSend: async (req) => ({ bulkSend: await bulkSends.start(req) }),
    getBulkSend: async (req) => ({ bulkSend: await bulkSends.get(req.workspaceId, req.bulkSendId) }),
    listBulkSends: (req) => bulkSends.list(req.workspaceId, req.pageIndex, req.pageSize),
    listBulkSendRows: (req) =>
      bulkSends.rows(req.workspaceId, req.bulkSendId, req.status, req.pageIndex, req.pageSize),
    cancelBulkSend: async (req) => ({ bulkSend: await bulkSends.cancel(req.workspaceId, req.bulkSendId) }),
    createBulkSendList: async (req) => ({
      list: await bulkSendLists.create(req.workspaceId, req.name, req.rows, req.actor),
    }),
    getBulkSendList: async (req) => ({ list: await bulkSendLists.get(req.workspaceId, req.listId) }),
    listBulkSendLists: async (req) => ({ lists: await bulkSendLists.list(req.workspaceId) }),
    updateBulkSendList: async (req) => ({
      list: await bulkSendLists.update(req.workspaceId, req.listId, req.name, req.rows),
    }),
    deleteBulkSendList: async (req) => {
      await bulkSendLists.delete(req.workspaceId, req.listId);
      return {};
    },
  };
  return (router: ConnectRouter) => router.service(RequestsService, impl);
}
