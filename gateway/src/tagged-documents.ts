/**
 * The fields the text tags of stored documents place (text-tags.ts): each document's tags found by
 * the documents service, which keeps its bytes and reads its text (FindText), one document at a time.
 */
import { type Client, Code, ConnectError } from "@connectrpc/connect";
import { FIELD_LIMITS } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { FieldViolation } from "@countersign/kit";
import { ApiProblem } from "./problems.js";
import { fieldsFromTags, type TaggedDocument, type TaggedField, type WrittenTag } from "./text-tags.js";

/** The most documents a request has, as the requests service counts them (request-layouts.ts). */
const MOST_DOCUMENTS = 10;

/**
 * A document's pages and its tags, at most one more than a request may have fields; undefined when
 * the service says its text cannot be read (FAILED_PRECONDITION).
 */
async function readTags(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentId: string,
): Promise<TaggedDocument | undefined> {
  try {
    const { document, tags } = await documents.findText({
      workspaceId,
      documentId,
      search: { case: "textTags", value: {} },
      limit: FIELD_LIMITS.fields + 1,
    });
    return {
      id: documentId,
      pages: (document?.pages ?? []).map(({ width, height }) => ({ width, height })),
      tags: tags.map(({ text, box }): WrittenTag => {
        if (!box) throw new Error("the documents service answered a text tag without its place");
        const { page, x, y, width, height } = box;
        return { text, page, x, y, width, height };
      }),
    };
  } catch (err) {
    if (err instanceof ConnectError && err.code === Code.FailedPrecondition) return undefined;
    throw err;
  }
}

/**
 * The tagged fields of the documents for `roles`, or a 422 naming each problem's page and tag (and a
 * document whose text cannot be read, or which has more tags than a request may have fields).
 */
export async function taggedFields(
  documents: Client<typeof DocumentsService>,
  workspaceId: string,
  documentIds: string[],
  roles: string[] | "any",
): Promise<TaggedField[]> {
  const read: TaggedDocument[] = [];
  const problems: FieldViolation[] = [];
  // Each document is read whole by the service: how many, and whether twice, is settled before any is.
  if (documentIds.length > MOST_DOCUMENTS) {
    problems.push({ path: "documentIds", message: `a request has at most ${MOST_DOCUMENTS} documents` });
  }
  documentIds.forEach((id, i) => {
    if (documentIds.indexOf(id) !== i)
      problems.push({ path: `documentIds[${i}]`, message: "names a document twice" });
  });
  if (problems.length > 0) throw new ApiProblem("validation_failed", "the documents are not valid", problems);
  for (const [i, documentId] of documentIds.entries()) {
    const tagged = await readTags(documents, workspaceId, documentId);
    const where = documentIds.length > 1 ? `document ${i + 1}` : "the document";
    if (!tagged)
      problems.push({ path: "textTags", message: `${where}: its text cannot be read to find text tags` });
    else if (tagged.tags.length > FIELD_LIMITS.fields) {
      problems.push({ path: "textTags", message: `${where} has more than ${FIELD_LIMITS.fields} text tags` });
    } else read.push(tagged);
  }
  if (problems.length > 0)
    throw new ApiProblem("validation_failed", "the text tags cannot be read", problems);
  const placed = fieldsFromTags(read, roles);
  if ("problems" in placed)
    throw new ApiProblem("validation_failed", "the text tags are not valid", placed.problems);
  return placed.fields;
}
