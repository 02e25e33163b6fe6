/**
 * /restapi's envelope recipients: list them, change signers' and copies' names and e-mails (each
 * answered on its own), and make an embedded signer's signing URL (the recipient view).
 */
import { actorOf } from "../public-api.js";
import { DocuSignError } from "./docusign-errors.js";
import { RecipientsUpdate, RecipientViewRequest } from "./envelope-definition.js";
import { recipientIdOf, recipientsJson } from "./envelope-json.js";
import { ENVELOPE } from "./envelope-routes.js";
import { type On, type RestApiServices, read, requestOf } from "./route.js";

/** DocuSign's own apps, which a focused view lists among its frame ancestors; nothing of theirs frames ours. */
const DOCUSIGN_APPS = /^https:\/\/([a-z0-9-]+\.)*docusign\.(com|net)\/?$/i;

/**
 * The integrator's origin among a focused view's frame ancestors: the one that is not DocuSign's.
 * Empty when none are given (a page of its own); naming none of the app's, or more than one, is
 * refused, as the URL opens in exactly one origin's frame.
 */
export function integratorOriginOf(frameAncestors: string[]): string {
  if (frameAncestors.length === 0) return "";
  const ours = frameAncestors.map((origin) => origin.trim()).filter((origin) => !DOCUSIGN_APPS.test(origin));
  if (ours.length !== 1) {
    throw new DocuSignError(
      400,
      "INVALID_REQUEST_PARAMETER",
      "frameAncestors must name one origin of your app (besides DocuSign's): the signing URL opens in that origin's frame",
    );
  }
  return ours[0] as string;
}

export function recipientRoutes(on: On, { requests }: Pick<RestApiServices, "requests">): void {
  on("get", "/envelopes/:envelopeId/recipients", "requests:read", ENVELOPE, async (req, res, caller) => {
    res.json(recipientsJson(await requestOf(requests, caller, String(req.params.envelopeId))));
  });

  on("put", "/envelopes/:envelopeId/recipients", "requests:send", ENVELOPE, async (req, res, caller) => {
    const request = await requestOf(requests, caller, String(req.params.envelopeId));
    const update = read(RecipientsUpdate, req.body ?? {}, "body");
    const asked = [...(update.signers ?? []), ...(update.carbonCopies ?? [])];
    const byId = new Map(request.recipients.map((r) => [recipientIdOf(request, r), r]));
    const changes = asked.flatMap((change) => {
      const recipient = byId.get(change.recipientId);
      return recipient ? [{ id: recipient.id, name: change.name, email: change.email }] : [];
    });
    if (changes.length > 0) {
      await requests.updateRecipients({
        workspaceId: caller.workspaceId,
        requestId: request.id,
        changes,
        actor: actorOf(req, res),
      });
    }
    res.json({
      recipientUpdateResults: asked.map((change) => ({
        recipientId: change.recipientId,
        errorDetails: byId.has(change.recipientId)
          ? { errorCode: "SUCCESS", message: "" }
          : {
              errorCode: "INVALID_RECIPIENT_ID",
              message: `the envelope has no recipient ${change.recipientId}`,
            },
      })),
    });
  });

  on(
    "post",
    "/envelopes/:envelopeId/views/recipient",
    "requests:send",
    ENVELOPE,
    async (req, res, caller) => {
      const request = await requestOf(requests, caller, String(req.params.envelopeId));
      const view = read(RecipientViewRequest, req.body ?? {}, "body");
      const same = (a: string, b: string | undefined) =>
        b === undefined || a.trim().toLowerCase() === b.trim().toLowerCase();
      // An embedded signer is named by clientUserId, email and userName; an in-person signer by their
      // host's email and userName (and clientUserId, where the host's session is embedded too).
      const signer = request.recipients.find(
        (r) =>
          r.kind === "signer" &&
          (r.host
            ? r.clientUserId === (view.clientUserId ?? "") &&
              same(r.host.email, view.email) &&
              same(r.host.name, view.userName)
            : r.clientUserId !== "" &&
              r.clientUserId === view.clientUserId &&
              same(r.email, view.email) &&
              same(r.name, view.userName)) &&
          (view.recipientId === undefined || recipientIdOf(request, r) === view.recipientId),
      );
      if (!signer) {
        throw new DocuSignError(
          400,
          "UNKNOWN_ENVELOPE_RECIPIENT",
          "no embedded signer of the envelope has this clientUserId, email and userName (nor an in-person signer a host of this email and userName)",
        );
      }
      res.locals.errorNames = { ...ENVELOPE, invalidState: "RECIPIENT_NOT_IN_SEQUENCE" };
      const made = await requests.createEmbeddedSigningUrl({
        workspaceId: caller.workspaceId,
        requestId: request.id,
        recipientId: signer.id,
        returnUrl: view.returnUrl ?? "",
        frameOrigin: integratorOriginOf(view.frameAncestors ?? []),
        actor: actorOf(req, res),
      });
      res.status(201).json({ url: made.url });
    },
  );
}
