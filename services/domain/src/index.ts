export * from "./api-usage.js";
export * from "./callers.js";
export * from "./document-claims.js";
export * from "./docusign-names.js";
export * from "./event-subjects.js";
export * from "./field-layout.js";
export * from "./request-states.js";
export * from "./webhook-formats.js";
