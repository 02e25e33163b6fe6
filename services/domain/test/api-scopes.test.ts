import {
  API_SCOPES,
  DOCUSIGN_SIGNATURE_SCOPES,
  grantedScopes,
  keyAccess,
  scopesProblem,
} from "../src/api-scopes.js";

test("a key stored without scopes may do everything; one with scopes only what they name", () => {
  expect([...grantedScopes([])]).toEqual([...API_SCOPES]);
  expect([...grantedScopes(["documents:read"])]).toEqual(["documents:read"]);
  expect(keyAccess([])).toEqual({ scopes: [...API_SCOPES], fullAccess: true });
  expect(keyAccess(["requests:send"])).toEqual({ scopes: ["requests:send"], fullAccess: false });
});

test("unknown and repeated scopes are named; known ones in any order pass", () => {
  expect(scopesProblem(["requests:read", "templates:read"])).toBeUndefined();
  expect(scopesProblem(["requests:reed"])).toContain('unknown scope "requests:reed"');
  expect(scopesProblem(["a", "b"])).toContain('unknown scopes "a", "b"');
  expect(scopesProblem(["requests:read", "requests:read"])).toBe("names a scope twice");
});

test("DocuSign's signature scope is the eSignature API: templates, documents and requests, not webhooks or settings", () => {
  expect(DOCUSIGN_SIGNATURE_SCOPES).toContain("requests:send");
  expect(DOCUSIGN_SIGNATURE_SCOPES).toContain("documents:write");
  expect(DOCUSIGN_SIGNATURE_SCOPES).not.toContain("webhooks:manage");
  expect(DOCUSIGN_SIGNATURE_SCOPES).not.toContain("settings:manage");
});
