/**
 * A real OpenID Connect provider (`oidc-provider`) in a process of its own, for the single sign-on
 * tests: `tsx test/support/oidc-provider-process.ts '<json>'` prints `listening <issuer>` when ready.
 * Its log-in page asks only for an e-mail (whoever types one is that person: the tests are about
 * the relying party, not the provider's passwords), and consent is taken as given. An e-mail
 * starting with "unverified." is sent with `email_verified: false`, one starting with "unstated."
 * without `email_verified`.
 *
 * Two faults stand for a provider that is wrong where a relying party must not trust it:
 * - "expired": the provider's clock runs two hours behind, so every ID token it signs expired an
 *   hour before it reaches the relying party;
 * - "wrong-audience": ID tokens name another client as their audience.
 */
import { createHash } from "node:crypto";
import http from "node:http";
import Provider, { type Grant } from "oidc-provider";

interface Options {
  clients: { client_id: string; client_secret: string; redirect_uris: string[] }[];
  fault?: "expired" | "wrong-audience";
}

const options = JSON.parse(process.argv[2] ?? "{}") as Options;

if (options.fault === "expired") {
  const realNow = Date.now;
  Date.now = () => realNow() - 2 * 3600 * 1000;
}

const server = http.createServer();
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address() as { port: number };
const issuer = `http://127.0.0.1:${port}`;

const provider: Provider = new Provider(issuer, {
  clients: options.clients.map((c) => ({
    ...c,
    grant_types: ["authorization_code"],
    response_types: ["code"],
    token_endpoint_auth_method: "client_secret_basic",
  })),
  cookies: { keys: ["a test provider's cookie key"] },
  claims: { openid: ["sub"], email: ["email", "email_verified"] },
  features: { devInteractions: { enabled: false } },
  pkce: { required: () => true },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  findAccount: (_ctx, accountId) => ({
    accountId,
    claims: () => ({
      sub: createHash("sha256").update(accountId).digest("hex").slice(0, 24),
      email: accountId.replace(/^(unverified|unstated)\./, ""),
      ...(accountId.startsWith("unstated.") ? {} : { email_verified: !accountId.startsWith("unverified.") }),
    }),
  }),
  // Consent is not what is tested: a person who logged in has granted what the client asked.
  loadExistingGrant: async (ctx): Promise<Grant | undefined> => {
    const accountId = ctx.oidc.session?.accountId;
    const client = ctx.oidc.client;
    if (!accountId || !client) return undefined;
    const grant: Grant = new provider.Grant({ clientId: client.clientId, accountId });
    grant.addOIDCScope("openid email profile");
    await grant.save();
    return grant;
  },
});

if (options.fault === "wrong-audience") {
  const issue = provider.IdToken.prototype.issue;
  provider.IdToken.prototype.issue = function (this: { client: object }, ...args: unknown[]) {
    const client = this.client;
    this.client = new Proxy(client, {
      get: (target, property) =>
        property === "clientId" ? "another-client" : Reflect.get(target, property, target),
    });
    try {
      return issue.apply(this, args as never);
    } finally {
      this.client = client;
    }
  };
}

const page = (uid: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Test identity provider</h1>
<form method="post" action="/interaction/${uid}/login">
<label>E-mail <input name="email" type="email" required></label>
<button type="submit">Sign in</button>
</form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>
</main></body></html>`;

const callback = provider.callback();
server.on("request", async (req: http.IncomingMessage, res: http.ServerResponse) => {
  const match = /^\/interaction\/([\w-]+)(?:\/(login|abort))?$/.exec(req.url ?? "");
  if (!match) return callback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== match[1]) throw new Error("not this interaction");
    if (req.method === "GET") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page(details.uid));
      return;
    }
    let body = "";
    for await (const chunk of req) body += chunk;
    const result =
      match[2] === "login"
        ? { login: { accountId: new URLSearchParams(body).get("email") ?? "" } }
        : { error: "access_denied", error_description: "the person cancelled" };
    await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
  } catch (error) {
    res.writeHead(400, { "content-type": "text/plain" }).end(String(error));
  }
});

process.stdout.write(`listening ${issuer}\n`);
