/**
 * What the web apps share with the services, for a browser: modules that import nothing a browser
 * lacks (no kit, no generated contracts, no Node). The package's main entry is for servers.
 */
export * from "./api-scopes.js";
export * from "./branding.js";
export * from "./embedded-views.js";
export * from "./field-conditions.js";
export * from "./message-selectors.js";
export * from "./signer-locales.js";
export * from "./signing-ended-words.js";
export * from "./signing-page-meta.js";
export * from "./text-isolation.js";
