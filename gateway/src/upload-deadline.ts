/**
 * Uploads are given a whole conversion's time on top of the request's deadline
 * (uploadDeadlineMs): a Word document the converter may take 60 s over is not cut off at the
 * request's 30 s, whichever route or tool stores it, since every upload goes through this client.
 */
import type { Client } from "@connectrpc/connect";
import { uploadDeadlineMs } from "@countersign/domain";
import type { DocumentsService } from "@countersign/gen/countersign/documents/v1/documents_service_pb.js";
import { type CallOptions, currentCallContext } from "@countersign/kit";

export function withConversionTime(
  documents: Client<typeof DocumentsService>,
  { requestTimeoutMs, conversionTimeoutMs }: { requestTimeoutMs: number; conversionTimeoutMs: number },
): Client<typeof DocumentsService> {
  const uploadDocument: Client<typeof DocumentsService>["uploadDocument"] = (
    input,
    options: CallOptions = {},
  ) => {
    // The request's own deadline began when it arrived: the upload's is counted from the same moment.
    const deadline = currentCallContext()?.deadline;
    const left = deadline === undefined ? requestTimeoutMs : deadline - Date.now();
    const timeoutMs = Math.max(
      1,
      left - requestTimeoutMs + uploadDeadlineMs(requestTimeoutMs, conversionTimeoutMs),
    );
    return documents.uploadDocument(input, { ...options, timeoutMs });
  };
  return { ...documents, uploadDocument };
}
