/** A view's kind by name (as the API and the page say it) and as auth's messages carry it. */
import type { EmbeddedViewKind } from "@countersign/domain";
import { EmbeddedViewKind as Kind } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";

export const KINDS: Record<EmbeddedViewKind, Kind> = {
  sender: Kind.SENDER,
  template_edit: Kind.TEMPLATE_EDIT,
};

/** A view's kind as auth answers it, by name; undefined for one this gateway does not know. */
export function kindNameOf(kind: Kind): EmbeddedViewKind | undefined {
  return (Object.keys(KINDS) as EmbeddedViewKind[]).find((name) => KINDS[name] === kind);
}
