/**
 * An envelope definition as one CreateSignatureRequest, the call the native API makes: from a
 * template, `templateRoles` fill its roles; from `documents`, each PDF is stored as an upload is,
 * each signer fills a role of their own, and their tabs become fields — placed by page position,
 * or at every place the anchor string is written in the documents' text. The sender's recipient and
 * document ids are kept, so later calls can name them. Documents stored for a definition that is
 * then refused are deleted again.
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { FIELD_LIMITS, roleKey, rulesMessage } from "@countersign/domain";
import type {
  DocumentsService,
  TextBox,
} from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type {
  CreateSignatureRequestRequestSchema,
  NewFieldSchema,
  NewRecipientSchema,
  RequestsService,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { TemplatesService } from "@countersign/gen/countersign/templates/v1/templates_service_pb.js";
import { formatBytes, type Logger } from "@countersign/kit";
import type { z } from "zod";
import { DEFAULT_FIELD_SIZES } from "../field-sizes.js";
import { toProblem } from "../problems.js";
import type { Actor } from "../public-api.js";
import { storeFileBytes } from "../routes/documents.js";
import { DocuSignError, invalidBody } from "./docusign-errors.js";
import {
  ANCHOR_UNITS,
  type CarbonCopy,
  type EnvelopeDefinition,
  type SigningRecipient,
  signingRecipients,
  type Tab,
} from "./envelope-definition.js";
import { scheduleOf } from "./envelope-notification.js";
import { signerTabs, TabConditions } from "./signer-tabs.js";

export interface EnvelopeServices {
  requests: Client<typeof RequestsService>;
  templates: Client<typeof TemplatesService>;
  documents: Client<typeof DocumentsService>;
}

type FieldInit = MessageInitShape<typeof NewFieldSchema>;
type RecipientInit = MessageInitShape<typeof NewRecipientSchema>;
type CreateInit = MessageInitShape<typeof CreateSignatureRequestRequestSchema>;

/** The fileExtensions of documents the service takes: PDFs, and the formats it makes PDFs of. */
const CONVERTIBLE_EXTENSIONS = new Set(["pdf", "docx", "odt", "rtf", "png", "jpg", "jpeg"]);

/** Who signs nothing: carbon copies (kind cc) and certified deliveries, who must view (kind viewer). */
function othersOf(
  definition: EnvelopeDefinition,
): { person: z.infer<typeof CarbonCopy>; kind: "cc" | "viewer" }[] {
  return [
    ...(definition.recipients?.carbonCopies ?? []).map((person) => ({ person, kind: "cc" as const })),
    ...(definition.recipients?.certifiedDeliveries ?? []).map((person) => ({
      person,
      kind: "viewer" as const,
    })),
  ];
}

function otherRecipient(
  { person, kind }: ReturnType<typeof othersOf>[number],
  externalId: string | undefined,
): RecipientInit {
  return {
    name: person.name,
    email: person.email,
    kind,
    routingOrder: person.routingOrder ?? 0,
    externalId,
    locale: person.emailNotification?.supportedLanguage ?? "",
  };
}

interface StoredPdf {
  /** The sender's id for the document. */
  clientId: string;
  documentId: string;
  pages: { width: number; height: number }[];
}

/** Where a tab goes: a page of a document, in points from its top-left. */
interface Place {
  document: StoredPdf;
  page: number;
  x: number;
  y: number;
}

/** A tab's anchor string, and whether its case counts. */
interface Anchor {
  text: string;
  caseSensitive: boolean;
}

/** Every place each anchor string is written, in document order, by anchorKey. */
type AnchorPlaces = Map<string, { document: StoredPdf; box: TextBox }[]>;

const anchorKey = (anchor: Anchor) => `${anchor.caseSensitive ? "=" : "~"}${anchor.text}`;

/** A signer's tabs and the fields they placed can each be no more than a request's fields. */
function tooManyFields(what: string): DocuSignError {
  return new DocuSignError(
    400,
    "INVALID_REQUEST_BODY",
    `${what}; an envelope has at most ${FIELD_LIMITS.fields} fields`,
  );
}

/** Ids for everyone: the sender's own, and the next free whole numbers for those without one. */
function externalIds(given: (string | undefined)[]): string[] {
  const taken = new Set(given.filter((id): id is string => id !== undefined));
  let next = 1;
  return given.map((id) => {
    if (id !== undefined) return id;
    while (taken.has(String(next))) next++;
    taken.add(String(next));
    return String(next);
  });
}

export class EnvelopeCreation {
  constructor(
    private readonly services: EnvelopeServices,
    private readonly maxUploadBytes: number,
    private readonly logger: Logger,
  ) {}

  async create(workspaceId: string, actor: Actor, definition: EnvelopeDefinition): Promise<SignatureRequest> {
    const send = definition.status === "sent";
    if (definition.templateId) {
      if (definition.documents?.length) {
        throw invalidBody("give a templateId with templateRoles, or documents with recipients, not both");
      }
      return this.fromTemplate(workspaceId, actor, definition, definition.templateId, send);
    }
    if (!definition.documents?.length) {
      throw invalidBody("give a templateId with templateRoles, or documents with recipients");
    }
    const tabCount = signingRecipients(definition).reduce(
      (sum, signer) => sum + [...signerTabs(signer)].length,
      0,
    );
    // Refused before any document is stored: each tab may cost a search of every document.
    if (tabCount > FIELD_LIMITS.fields) throw tooManyFields(`the signers have ${tabCount} tabs`);
    const stored: StoredPdf[] = [];
    try {
      for (const document of definition.documents) stored.push(await this.store(workspaceId, document));
      return await this.fromDocuments(workspaceId, actor, definition, stored, send);
    } catch (err) {
      await this.discard(workspaceId, stored);
      throw err;
    }
  }

  private async fromTemplate(
    workspaceId: string,
    actor: Actor,
    definition: EnvelopeDefinition,
    templateId: string,
    send: boolean,
  ): Promise<SignatureRequest> {
    const { template } = await this.services.templates
      .getTemplate({ workspaceId, templateId })
      .catch((err) => {
        if (err instanceof ConnectError && err.code === Code.NotFound)
          throw new DocuSignError(
            400,
            "TEMPLATE_ID_INVALID",
            `there is no template ${templateId} in this account`,
          );
        throw err;
      });
    if (!template) throw new Error("the templates service answered without a template");
    const roles = template.roles.map((role) => roleKey(role.name));
    const signers: RecipientInit[] = (definition.templateRoles ?? []).map((role) => {
      // A DocuSign template numbers its roles' recipients in order: so do we.
      const position = roles.indexOf(roleKey(role.roleName));
      return {
        name: role.name,
        email: role.email,
        role: role.roleName,
        clientUserId: role.clientUserId ?? "",
        routingOrder: role.routingOrder ?? 0,
        externalId: position >= 0 ? String(position + 1) : "",
        accessCode: role.accessCode ?? "",
        locale: role.emailNotification?.supportedLanguage ?? "",
      };
    });
    const others = othersOf(definition);
    const otherIds = externalIds([
      ...signers.map((s) => s.externalId || undefined),
      ...others.map((o) => o.person.recipientId),
    ]);
    const recipients = [
      ...signers,
      ...others.map((other, i) => otherRecipient(other, otherIds[signers.length + i])),
    ];
    return this.request(workspaceId, actor, definition, send, {
      title: definition.emailSubject || template.name,
      templateId,
      recipients,
    });
  }

  private async fromDocuments(
    workspaceId: string,
    actor: Actor,
    definition: EnvelopeDefinition,
    stored: StoredPdf[],
    send: boolean,
  ): Promise<SignatureRequest> {
    const signers = signingRecipients(definition);
    const others = othersOf(definition);
    const ids = externalIds([
      ...signers.map((s) => s.recipientId),
      ...others.map((o) => o.person.recipientId),
    ]);
    const roleOf = (signer: SigningRecipient, index: number) => signer.roleName || `Signer ${ids[index]}`;
    const anchors = await this.anchorPlaces(workspaceId, signers, stored);
    const fields: FieldInit[] = [];
    for (const [index, signer] of signers.entries()) {
      this.addFields(fields, signer, roleOf(signer, index), stored, anchors);
    }
    const recipients: RecipientInit[] = [
      ...signers.map((signer, i) => ({
        name: signer.name,
        email: signer.email,
        role: roleOf(signer, i),
        clientUserId: signer.clientUserId ?? "",
        routingOrder: signer.routingOrder ?? 0,
        externalId: ids[i],
        accessCode: signer.accessCode ?? "",
        locale: signer.emailNotification?.supportedLanguage ?? "",
        host: signer.host,
      })),
      ...others.map((other, i) => otherRecipient(other, ids[signers.length + i])),
    ];
    return this.request(workspaceId, actor, definition, send, {
      title: definition.emailSubject || definition.documents?.[0]?.name || "Please sign",
      documentIds: stored.map((d) => d.documentId),
      documentExternalIds: stored.map((d) => d.clientId),
      fields,
      recipients,
    });
  }

  /** The one call that creates the request, whichever way the envelope was defined. */
  private async request(
    workspaceId: string,
    actor: Actor,
    definition: EnvelopeDefinition,
    send: boolean,
    made: Pick<
      CreateInit,
      "title" | "templateId" | "documentIds" | "documentExternalIds" | "fields" | "recipients"
    >,
  ): Promise<SignatureRequest> {
    const { signatureRequest } = await this.services.requests.createSignatureRequest({
      ...made,
      workspaceId,
      message: definition.emailBlurb ?? "",
      send,
      allowReassign: definition.allowReassign ?? false,
      ...scheduleOf(definition.notification),
      actor,
    });
    if (!signatureRequest) throw new Error("the requests service answered without a request");
    return signatureRequest;
  }

  /**
   * Where every anchor of the signers' tabs is written, searched once per document for all of them.
   * One anchor found more often than a request may have fields is refused by its first tab, so the
   * search stops at one more than that.
   */
  private async anchorPlaces(
    workspaceId: string,
    signers: SigningRecipient[],
    stored: StoredPdf[],
  ): Promise<AnchorPlaces> {
    const anchors = new Map<string, Anchor>();
    for (const signer of signers) {
      for (const { tab } of signerTabs(signer)) {
        if (!tab.anchorString) continue;
        const anchor = { text: tab.anchorString, caseSensitive: tab.anchorCaseSensitive === true };
        anchors.set(anchorKey(anchor), anchor);
      }
    }
    const places: AnchorPlaces = new Map([...anchors.keys()].map((key) => [key, []]));
    if (anchors.size === 0) return places;
    const wanted = [...anchors.values()];
    for (const document of stored) {
      const found = await this.services.documents
        .findText({
          workspaceId,
          documentId: document.documentId,
          search: { case: "anchors", value: { anchors: wanted } },
          limit: FIELD_LIMITS.fields + 1,
        })
        .catch((err: unknown) => {
          if (!(err instanceof ConnectError && err.code === Code.FailedPrecondition)) throw err;
          throw new DocuSignError(
            400,
            "FORMAT_CONVERSION_ERROR",
            `document ${document.clientId}: its text cannot be read to find anchor strings`,
          );
        });
      wanted.forEach((anchor, i) => {
        const into = places.get(anchorKey(anchor)) ?? [];
        for (const box of found.anchors[i]?.boxes ?? []) into.push({ document, box });
      });
    }
    return places;
  }

  /** A signer's tabs as fields of their role, each inside its page, added to `fields` while they fit. */
  private addFields(
    fields: FieldInit[],
    signer: SigningRecipient,
    role: string,
    stored: StoredPdf[],
    anchors: AnchorPlaces,
  ): void {
    const conditions = new TabConditions();
    for (const signerTab of signerTabs(signer)) {
      const { type, tab, where, required, rules } = signerTab;
      const [width, height] = [
        tab.width ?? DEFAULT_FIELD_SIZES[type]?.[0] ?? 100,
        tab.height ?? DEFAULT_FIELD_SIZES[type]?.[1] ?? 20,
      ];
      const field = { type, role, width, height, required, label: tab.tabLabel ?? "" };
      const ids: string[] = [];
      for (const place of this.placesOf(tab, stored, anchors, where)) {
        if (fields.length === FIELD_LIMITS.fields) {
          throw tooManyFields(
            tab.anchorString
              ? `${where}: the anchor string "${tab.anchorString}" places fields beyond the limit`
              : `${where} places a field beyond the limit`,
          );
        }
        const page = place.document.pages[place.page - 1];
        // Kept inside the page, as DocuSign keeps a tab near an edge on it.
        const x = page ? Math.min(Math.max(place.x, 0), Math.max(page.width - width, 0)) : place.x;
        const y = page ? Math.min(Math.max(place.y, 0), Math.max(page.height - height, 0)) : place.y;
        // Every field has an id of its own: a condition names its parent by it.
        const id = `tab-${fields.length + 1}`;
        ids.push(id);
        fields.push({
          ...field,
          id,
          documentId: place.document.documentId,
          page: place.page,
          x,
          y,
          rules: rulesMessage(rules),
        });
      }
      conditions.add(signerTab, ids);
    }
    conditions.resolve((fieldId, condition) => {
      const rules = fields.find((f) => f.id === fieldId)?.rules;
      if (rules) rules.condition = condition;
    });
  }

  private placesOf(tab: Tab, stored: StoredPdf[], anchors: AnchorPlaces, where: string): Place[] {
    if (tab.anchorString) {
      const unit = ANCHOR_UNITS[tab.anchorUnits ?? "pixels"];
      const found =
        anchors.get(anchorKey({ text: tab.anchorString, caseSensitive: tab.anchorCaseSensitive === true })) ??
        [];
      if (found.length === 0 && tab.anchorIgnoreIfNotPresent !== true) {
        throw new DocuSignError(
          400,
          "ANCHOR_TAB_PROCESSING_FAILURE",
          `${where}: the anchor string "${tab.anchorString}" is not in the text of any document`,
        );
      }
      return found.map(({ document, box }) => ({
        document,
        page: box.page,
        x: box.x + (tab.anchorXOffset ?? 0) * unit,
        y: box.y + (tab.anchorYOffset ?? 0) * unit,
      }));
    }
    const document =
      tab.documentId === undefined ? stored[0] : stored.find((d) => d.clientId === tab.documentId);
    if (!document)
      throw invalidBody(`${where}.documentId: "${tab.documentId}" is not a documentId of this envelope`);
    if (tab.xPosition === undefined || tab.yPosition === undefined)
      throw invalidBody(`${where}: give anchorString, or xPosition and yPosition`);
    return [{ document, page: tab.pageNumber ?? 1, x: tab.xPosition, y: tab.yPosition }];
  }

  private async store(
    workspaceId: string,
    document: NonNullable<EnvelopeDefinition["documents"]>[number],
  ): Promise<StoredPdf> {
    const extension = (document.fileExtension ?? "pdf").replace(/^\./, "").toLowerCase();
    if (!CONVERTIBLE_EXTENSIONS.has(extension)) {
      throw new DocuSignError(
        400,
        "FORMAT_CONVERSION_ERROR",
        `document ${document.documentId}: only PDF, DOCX, ODT, RTF, PNG and JPEG documents are supported (fileExtension "${extension}")`,
      );
    }
    if (Buffer.byteLength(document.documentBase64, "base64") > this.maxUploadBytes) {
      throw new DocuSignError(
        400,
        "MAX_DOCUMENT_SIZE_EXCEEDED",
        `document ${document.documentId} is larger than ${formatBytes(this.maxUploadBytes)}`,
      );
    }
    const bytes = Buffer.from(document.documentBase64, "base64");
    // The text is four thirds of the file and no longer needed; the parsed body may outlive this call.
    document.documentBase64 = "";
    const filename = document.name.toLowerCase().endsWith(`.${extension}`)
      ? document.name
      : `${document.name}.${extension}`;
    const saved = await storeFileBytes(this.services.documents, workspaceId, filename, bytes).catch(
      (err: unknown) => {
        // Not a PDF, damaged or encrypted: DocuSign's answer for a document it cannot read.
        const { problem } = toProblem(err, "");
        if (problem.code !== "unsupported_media_type" && problem.code !== "validation_failed") throw err;
        const why = problem.errors[0]?.message ?? problem.detail;
        throw new DocuSignError(400, "FORMAT_CONVERSION_ERROR", `document ${document.documentId}: ${why}`);
      },
    );
    // Anchors are found in the stored PDF, which for a converted file is what the service made of it.
    return { clientId: document.documentId, documentId: saved.id, pages: saved.pages };
  }

  private async discard(workspaceId: string, stored: StoredPdf[]): Promise<void> {
    await Promise.all(
      stored.map(({ documentId }) =>
        this.services.documents.deleteDocument({ workspaceId, documentId }).catch((err: unknown) => {
          this.logger.warn({ err, documentId }, "could not delete a document of a refused envelope");
        }),
      ),
    );
  }
}
