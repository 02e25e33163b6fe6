/**
 * What bulk send asks of request creation: to make a row's request as CreateSignatureRequest would,
 * and to check rows the same way first. Declared here, not imported from the creation feature
 * (features never import each other); the wiring (service.ts) hands bulk send the creation feature.
 */
import type {
  CreateSignatureRequestRequest,
  SignatureRequest,
} from "@countersign/gen/countersign/requests/v1/requests_service_pb.js";
import type { FieldViolation } from "@countersign/kit";

export interface RequestMaker {
  create(input: CreateSignatureRequestRequest): Promise<SignatureRequest>;
  /** A check of requests made from the template `template` names, answering what `create` would refuse. */
  checkerFor(
    template: CreateSignatureRequestRequest,
  ): Promise<(input: CreateSignatureRequestRequest) => FieldViolation[]>;
}
