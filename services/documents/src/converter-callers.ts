/** Who may call the converter: the documents service, with the files uploaded in other formats. */
import { callersOf } from "@countersign/domain";

export const CONVERTER_CALLERS = callersOf({ documents: ["ConvertDocument"], operator: "*" });
