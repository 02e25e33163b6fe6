/**
 * An identity provider is named by an Organization Admin, so what it answers is as hostile as any
 * request: an answer of any size, from any address. These tests hold auth to its bounds — a discovery
 * document or token answer larger than a provider's answers ever are is refused after the cap, not
 * read whole; an issuer on an address that is not public is refused in one sentence, whatever
 * listens there, so saving a provider cannot scan our network; the browser is never sent to an
 * authorization endpoint that is not https.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { Role, SingleSignOnRefusal } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { NOT_PUBLIC_ADDRESS, parseNetworks } from "@countersign/kit";
import { IdentityProviders, PROVIDER_ANSWER } from "../src/identity-providers.js";
import { type StartedAuth, startAuth } from "./harness.js";

const LOOPBACK = parseNetworks("127.0.0.0/8, ::1/128");
const CLIENT = { clientId: "countersign", clientSecret: "a-client-secret-of-the-test-provider" };
const REDIRECT_URI = "https://sign.example.test/console/sso/callback/acme";

/** A provider whose answers the test decides; it counts the bytes it managed to send. */
interface HostileProvider {
  issuer: string;
  requests: string[];
  /** Bytes written into sockets that were still open. */
  sent: () => number;
  close(): Promise<void>;
}

type Handler = (path: string, res: ServerResponse, provider: HostileProvider) => void;

async function hostileProvider(handle: Handler): Promise<HostileProvider> {
  let sent = 0;
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    const write = res.write.bind(res);
    res.write = ((chunk: Buffer | string, ...rest: never[]) => {
      sent += Buffer.byteLength(chunk);
      return write(chunk, ...rest);
    }) as typeof res.write;
    handle(req.url ?? "/", res, provider);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: HostileProvider = {
    issuer,
    requests,
    sent: () => sent,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return provider;
}

function discoveryOf(issuer: string, overrides: Record<string, unknown> = {}) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["RS256"],
    ...overrides,
  };
}

/** Streams `total` bytes of JSON white space after an opening brace, without ever holding them. */
function streamEndless(res: ServerResponse, total: number): void {
  res.writeHead(200, { "content-type": "application/json" });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let left = total;
  res.write("{");
  const pump = () => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    if (!res.destroyed) res.end("}");
  };
  pump();
}

const providers: HostileProvider[] = [];
async function provider(handle: Handler): Promise<HostileProvider> {
  const started = await hostileProvider(handle);
  providers.push(started);
  return started;
}
afterEach(async () => {
  await Promise.all(providers.splice(0).map((started) => started.close()));
});

async function refusal(promise: Promise<unknown>): Promise<ConnectError> {
  const err = await promise.then(
    () => undefined,
    (error: unknown) => ConnectError.from(error),
  );
  if (!err) throw new Error("expected the provider to be refused");
  return err;
}

describe("the size of a provider's answers", () => {
  test("a 100 MB discovery document is refused once 64 KiB are read, and the connection is dropped", async () => {
    const hostile = await provider((_path, res) => streamEndless(res, 100 * 1024 * 1024));
    const providers = new IdentityProviders({ allowNetworks: LOOPBACK });
    try {
      const err = await refusal(providers.configuration({ issuer: hostile.issuer, ...CLIENT }));
      expect(err.code).toBe(Code.FailedPrecondition);
      expect(err.rawMessage).toContain(`answered more than ${PROVIDER_ANSWER.maxBytes} bytes`);
      // What crossed before the reader hung up: the cap and what the sockets' buffers held, not 100 MB.
      expect(hostile.sent()).toBeLessThan(8 * 1024 * 1024);
    } finally {
      providers.close();
    }
  });

  test("a declared length over the cap is refused before the body is read", async () => {
    const hostile = await provider((_path, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": String(170 * 1024 * 1024) });
      res.write("{");
    });
    const providers = new IdentityProviders({ allowNetworks: LOOPBACK });
    try {
      const err = await refusal(providers.configuration({ issuer: hostile.issuer, ...CLIENT }));
      expect(err.rawMessage).toContain(`answered more than ${PROVIDER_ANSWER.maxBytes} bytes`);
    } finally {
      providers.close();
    }
  });

  test("a token answer over the cap ends the log-in as the provider being unavailable, read no further", async () => {
    const hostile = await provider((path, res, self) => {
      if (path === "/.well-known/openid-configuration") {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(discoveryOf(self.issuer)));
      } else if (path === "/token") {
        streamEndless(res, 170 * 1024 * 1024);
      } else {
        res.writeHead(404).end();
      }
    });
    const auth: StartedAuth = await startAuth({ identityProviderNetworks: LOOPBACK });
    try {
      const workspaceId = (await auth.client.createWorkspace({ name: "Acme" })).workspace?.id as string;
      const { member } = await auth.client.addMember({
        workspaceId,
        email: "admin@example.com",
        role: Role.ORG_ADMIN,
        password: "a-long-password",
      });
      await auth.client.updateSingleSignOn({
        workspaceId,
        enabled: true,
        issuer: hostile.issuer,
        ...CLIENT,
        allowedDomains: ["example.com"],
        newMemberRole: Role.MEMBER,
        passwordLoginEnabled: true,
        actorUserId: member?.userId as string,
      });
      const begun = await auth.client.beginSingleSignOn({ workspaceId, redirectUri: REDIRECT_URI });
      const finished = await auth.client.finishSingleSignOn({
        state: begun.state,
        callbackUrl: `${REDIRECT_URI}?code=a-code&state=${begun.state}`,
        clientAddress: "203.0.113.9",
      });
      expect(finished.refusal).toBe(SingleSignOnRefusal.UNAVAILABLE);
      expect(finished.refusalDetail).toContain(`answered more than ${PROVIDER_ANSWER.maxBytes} bytes`);
      expect(hostile.requests).toContain("POST /token");
      expect(hostile.sent()).toBeLessThan(8 * 1024 * 1024);
    } finally {
      await auth.close();
    }
  });
});

describe("the addresses a provider may be on", () => {
  test("an issuer on loopback or a private address is refused in one sentence, whatever listens there", async () => {
    const listening = await provider((_path, res) => res.writeHead(404).end());
    const closed = await provider(() => {});
    const closedIssuer = closed.issuer;
    await closed.close();
    providers.splice(providers.indexOf(closed), 1);
    const providersOfNoNetwork = new IdentityProviders();
    try {
      const issuers = [
        listening.issuer,
        closedIssuer,
        "http://127.0.0.1:5432",
        "http://localhost:4222",
        "https://10.0.0.1",
        "https://169.254.169.254",
        "https://[::1]:8443",
      ];
      const messages = await Promise.all(
        issuers.map(async (issuer) => {
          const err = await refusal(providersOfNoNetwork.configuration({ issuer, ...CLIENT }));
          // The URL the admin typed, then the same reason for every one of them.
          return err.rawMessage.replace(issuer, "ISSUER");
        }),
      );
      expect(new Set(messages).size).toBe(1);
      expect(messages[0]).toContain(NOT_PUBLIC_ADDRESS);
      // Nothing was asked of the provider that listens.
      expect(listening.requests).toEqual([]);
    } finally {
      providersOfNoNetwork.close();
    }
  });
});

describe("the authorization endpoint people are sent to", () => {
  test.each([
    ["javascript:alert(1)", "not https"],
    ["http://phish.example.com/authorize", "not https"],
    ["https://user:pass@idp.example.com/authorize", "carries credentials"],
  ])("a discovery document naming %s is refused", async (endpoint, reason) => {
    const hostile = await provider((_path, res, self) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(discoveryOf(self.issuer, { authorization_endpoint: endpoint })));
    });
    const providers = new IdentityProviders({ allowNetworks: LOOPBACK });
    try {
      const err = await refusal(providers.configuration({ issuer: hostile.issuer, ...CLIENT }));
      expect(err.code).toBe(Code.FailedPrecondition);
      expect(err.rawMessage).toContain(reason);
    } finally {
      providers.close();
    }
  });
});
