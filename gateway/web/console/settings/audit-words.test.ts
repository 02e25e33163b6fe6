import { auditSentence } from "./audit-words";

test("each audited change reads as a sentence naming who did it, the CLI's as the operator's", () => {
  expect(auditSentence({ actor: "a@example.com", action: "member.invited", target: "b@example.com" })).toBe(
    "a@example.com invited b@example.com",
  );
  expect(auditSentence({ actor: "operator", action: "workspace.api_access_disabled", target: "Acme" })).toBe(
    "The operator (CLI) turned API access off",
  );
  expect(auditSentence({ actor: "b@example.com", action: "member.joined", target: "b@example.com" })).toBe(
    "b@example.com joined the workspace",
  );
  // A log-in the identity provider vouched for but the workspace refused names whom it named.
  expect(
    auditSentence({
      actor: "eve@elsewhere.net",
      action: "single_sign_on.refused",
      target: "https://idp.example.com",
    }),
  ).toBe("eve@elsewhere.net was refused log-in through https://idp.example.com");
  // An action this console does not know yet still says what the service recorded.
  expect(auditSentence({ actor: "a@example.com", action: "key.rotated", target: "CI" })).toBe(
    "a@example.com key.rotated CI",
  );
});
