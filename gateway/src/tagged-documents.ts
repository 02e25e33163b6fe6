/**
 * The fields the text tags of stored documents place (text-tags.ts): each document read from the
 * documents service and its text searched in the PDF text process (pdf-text.ts), one at a time.
 */
import type { Client } from "@connectrpc/connect";
import { FIELD_LIMITS } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import type { FieldViolation } from "@countersign/kit";
import { readDocument } from "./document-download.js";
import { findTags } from "./pdf-text.js";
import { ApiProblem } from "./problems.js";
import { fieldsFromTags, type TaggedDocument, type TaggedField } from "./text-tags.js";

/**
 * A document is held whole while pdf.js reads it, and the PDF text process reads one at a time:
 * calls take turns, so a gateway holds one document (up to the upload limit) however many ask.
 */
let turn: Promise<unknown> = Promise.resolve();

/** The most documents a request has, as the requests service counts them (request-layouts.ts). */
const MOST_DOCUMENTS = 10;
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const mine = turn.then(work, work);
  turn = mine.catch(() => undefined);
  return mine;
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
  // Each document is read whole: how many, and whether twice, is settled before any is read.
  if (documentIds.length > MOST_DOCUMENTS) {
    problems.push({ path: "documentIds", message: `a request has at most ${MOST_DOCUMENTS} documents` });
  }
  documentIds.forEach((id, i) => {
    if (documentIds.indexOf(id) !== i)
      problems.push({ path: `documentIds[${i}]`, message: "names a document twice" });
  });
  if (problems.length > 0) throw new ApiProblem("validation_failed", "the documents are not valid", problems);
  for (const [i, documentId] of documentIds.entries()) {
    const { document, tags } = await oneAtATime(async () => {
      const { document, bytes } = await readDocument(documents, workspaceId, documentId);
      return { document, tags: await findTags(bytes, FIELD_LIMITS.fields + 1) };
    });
    const where = documentIds.length > 1 ? `document ${i + 1}` : "the document";
    if (!tags)
      problems.push({ path: "textTags", message: `${where}: its text cannot be read to find text tags` });
    else if (tags.length > FIELD_LIMITS.fields) {
      problems.push({ path: "textTags", message: `${where} has more than ${FIELD_LIMITS.fields} text tags` });
    } else
      read.push({
        id: documentId,
        pages: document.pages.map(({ width, height }) => ({ width, height })),
        tags,
      });
  }
  if (problems.length > 0)
    throw new ApiProblem("validation_failed", "the text tags cannot be read", problems);
  const placed = fieldsFromTags(read, roles);
  if ("problems" in placed)
    throw new ApiProblem("validation_failed", "the text tags are not valid", placed.problems);
  return placed.fields;
}
