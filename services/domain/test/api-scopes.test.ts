import {
  API_SCOPES,
  DOCUSIGN_SIGNATURE_SCOPES,
  FULL_ACCESS,
  grantedScopes,
  keyAccess,
  proposes,
  scopesProblem,
} from "../src/api-scopes.js";

test("a key stored without scopes may do everything but propose; one with scopes only what they name", () => {
  expect([...grantedScopes([])]).toEqual(API_SCOPES.filter((s) => s !== "requests:propose"));
  expect([...grantedScopes(["documents:read"])]).toEqual(["documents:read"]);
  expect(keyAccess([])).toEqual({ scopes: [...FULL_ACCESS], fullAccess: true });
  expect(keyAccess(["requests:send"])).toEqual({ scopes: ["requests:send"], fullAccess: false });
});

test("unknown and repeated scopes are named; known ones in any order pass", () => {
  expect(scopesProblem(["requests:read", "templates:read"])).toBeUndefined();
  expect(scopesProblem(["requests:reed"])).toContain('unknown scope "requests:reed"');
  expect(scopesProblem(["a", "b"])).toContain('unknown scopes "a", "b"');
  expect(scopesProblem(["requests:read", "requests:read"])).toBe("names a scope twice");
  expect(scopesProblem(["requests:send", "requests:propose"])).toContain("exclude each other");
});

test("a key proposes when it has requests:propose and cannot send", () => {
  expect(proposes(new Set(["requests:write", "requests:propose"]))).toBe(true);
  expect(proposes(new Set(["requests:write", "requests:send"]))).toBe(false);
  expect(proposes(grantedScopes([]))).toBe(false);
  expect(proposes(undefined)).toBe(false);
});

test("DocuSign's signature scope is the eSignature API: templates, documents and requests, not webhooks or settings", () => {
  expect(DOCUSIGN_SIGNATURE_SCOPES).toContain("requests:send");
  expect(DOCUSIGN_SIGNATURE_SCOPES).toContain("documents:write");
  expect(DOCUSIGN_SIGNATURE_SCOPES).not.toContain("webhooks:manage");
  expect(DOCUSIGN_SIGNATURE_SCOPES).not.toContain("settings:manage");
  expect(DOCUSIGN_SIGNATURE_SCOPES).not.toContain("requests:propose");
});
