/** Translates DocumentsService RPCs into calls on Documents; streams become async iterables. */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ConnectRouter, ServiceImpl } from "@connectrpc/connect";
import { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { inChunksOf } from "@countersign/kit";
import type { Documents } from "./documents.js";
import type { TextFinder } from "./find-text.js";
import { headerAndChunks } from "./stream-parts.js";

export function documentsRoutes(documents: Documents, texts: TextFinder) {
  const impl: ServiceImpl<typeof DocumentsService> = {
    async uploadDocument(requests, context) {
      const { header, chunks } = await headerAndChunks(requests);
      return { document: await documents.upload(header, chunks, context.signal) };
    },
    getDocument: async (req) => ({ document: await documents.get(req.workspaceId, req.documentId) }),
    listDocuments: (req) => documents.list(req.workspaceId, req.pageIndex, req.pageSize),
    async *downloadDocument(req) {
      const { document, source } = await documents.download(
        req.workspaceId,
        req.documentId,
        { url: req.acceptDirectUrl, file: req.acceptFileUrl },
        { source: req.source },
      );
      yield { part: { case: "document", value: document } };
      if ("url" in source) yield { part: { case: "directUrl", value: source.url } };
      else
        for await (const chunk of inChunksOf(source.bytes)) yield { part: { case: "chunk", value: chunk } };
    },
    deleteDocument: async (req) => {
      await documents.delete(req.workspaceId, req.documentId);
      return {};
    },
    claimDocument: async (req) => ({
      document: await documents.claim(req.workspaceId, req.documentId, req.holder),
    }),
    releaseDocument: async (req) => {
      await documents.release(req.workspaceId, req.documentId, req.holder);
      return {};
    },
    listClaims: async (req) => {
      const before = req.createTimeBefore ? timestampDate(req.createTimeBefore) : new Date();
      const page = await documents.claims(req.holderPrefix, before, req.pageSize, req.pageToken);
      return {
        claims: page.claims.map((c) => ({
          workspaceId: c.workspace_id,
          documentId: c.document_id,
          holder: c.holder,
          createTime: timestampFromDate(c.created_at),
        })),
        nextPageToken: page.nextPageToken,
      };
    },
    findText: (req, context) => texts.find(req, context.signal),
  };
  return (router: ConnectRouter) => router.service(DocumentsService, impl);
}
