/**
 * A signature request as DocuSign writes an envelope, and its recipients as DocuSign's recipient
 * lists: DocuSign's status names, the sender's own recipient and document ids (their position when
 * none was given), numbers as strings, absent values left out and every list present.
 */
import {
  currentRoutingOrder,
  docuSignRecipientId,
  recipientStatus as docuSignRecipientStatus,
  docuSignRecipientType,
  envelopeStatus,
} from "@countersign/domain";
import type {
  Recipient,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import { dsTime, present } from "./ds-values.js";

/** The id a DocuSign client knows a recipient by. */
export function recipientIdOf(request: SignatureRequest, recipient: Recipient): string {
  return docuSignRecipientId(request.recipients.indexOf(recipient), recipient.externalId);
}

/** The id a DocuSign client knows each document by, in the request's order. */
export function documentIdsOf(request: SignatureRequest): string[] {
  return request.documentIds.map((_, i) => request.documentExternalIds[i] || String(i + 1));
}

/**
 * A carbon copy has its copy once the request is completed; until then, like DocuSign, `created`.
 * A signer whose invitation the mail server refused for good is `autoresponded`, DocuSign's word for
 * an e-mail that bounced.
 */
function recipientStatus(request: SignatureRequest, recipient: Recipient): string {
  const delivery = recipient.emailDelivery;
  if (
    recipient.kind === "signer" &&
    recipient.status === "sent" &&
    delivery?.kind === "invitation" &&
    delivery.status === "failed"
  )
    return "autoresponded";
  return docuSignRecipientStatus(request, recipient);
}

function recipientJson(request: SignatureRequest, recipient: Recipient) {
  return present({
    recipientId: recipientIdOf(request, recipient),
    recipientIdGuid: recipient.id,
    // A hosted signer is DocuSign's in-person signer, with its host and its own name beside.
    recipientType: recipient.host ? "inpersonsigner" : docuSignRecipientType(recipient.kind),
    hostName: recipient.host?.name,
    hostEmail: recipient.host?.email,
    signerName: recipient.host ? recipient.name : undefined,
    signerEmail: recipient.host ? recipient.email : undefined,
    name: recipient.name,
    email: recipient.email,
    routingOrder: String(recipient.routingOrder),
    roleName: recipient.role,
    clientUserId: recipient.clientUserId,
    status: recipientStatus(request, recipient),
    deliveredDateTime: dsTime(recipient.viewTime),
    signedDateTime: dsTime(recipient.signTime),
    declinedDateTime: dsTime(recipient.declineTime),
    declinedReason: recipient.declineReason,
    // DocuSign's spelling of a language with a region: pt_BR.
    emailNotification: recipient.locale
      ? { supportedLanguage: recipient.locale.replace("-", "_") }
      : undefined,
  });
}

/** DocuSign's recipient lists that Countersign has no recipients for: present, and empty. */
export const NO_OTHER_RECIPIENTS = {
  carbonCopies: [],
  agents: [],
  editors: [],
  intermediaries: [],
  inPersonSigners: [],
  seals: [],
  witnesses: [],
  notaries: [],
};

export function recipientsJson(request: SignatureRequest) {
  const of = (kind: string, hosted = false) =>
    request.recipients
      .filter((r) => r.kind === kind && (r.host !== undefined) === hosted)
      .map((r) => recipientJson(request, r));
  return {
    ...NO_OTHER_RECIPIENTS,
    signers: [...of("signer"), ...of("approver")],
    inPersonSigners: of("signer", true),
    carbonCopies: of("cc"),
    certifiedDeliveries: of("viewer"),
    recipientCount: String(request.recipients.length),
    currentRoutingOrder: String(currentRoutingOrder(request)),
  };
}

export function envelopeJson(request: SignatureRequest, include: { recipients: boolean }) {
  const uri = `/envelopes/${request.id}`;
  const declined = request.recipients.find((r) => r.declineTime);
  const viewed = request.recipients.map((r) => r.viewTime).filter((t) => t !== undefined);
  const status = envelopeStatus(request);
  return {
    ...present({
      envelopeId: request.id,
      status,
      emailSubject: request.title,
      emailBlurb: request.message,
      allowReassign: String(request.allowReassign),
      templateId: request.templateId,
      createdDateTime: dsTime(request.createTime),
      sentDateTime: dsTime(request.sendTime),
      deliveredDateTime:
        status === "delivered" || status === "completed"
          ? dsTime(viewed.sort((a, b) => Number(b.seconds - a.seconds))[0])
          : undefined,
      completedDateTime: dsTime(request.completeTime),
      declinedDateTime: dsTime(declined?.declineTime),
      voidedDateTime: dsTime(request.cancelTime),
      voidedReason: request.cancelReason,
      expireDateTime: dsTime(request.expireTime),
      statusChangedDateTime: dsTime(request.updateTime),
      lastModifiedDateTime: dsTime(request.updateTime),
      envelopeUri: uri,
      documentsUri: `${uri}/documents`,
      recipientsUri: `${uri}/recipients`,
      documentsCombinedUri: `${uri}/documents/combined`,
      certificateUri: `${uri}/documents/certificate`,
    }),
    ...(include.recipients ? { recipients: recipientsJson(request) } : {}),
  };
}
