/**
 * The console's session cookie as the browser receives it: `__Host-cs_session` where the public URL
 * is https (Secure, Path=/, no Domain, so no sibling subdomain can set or shadow it), `cs_session`
 * over plain http; SameSite=Strict either way, and no CSRF cookie beside it. Against an auth service
 * in memory that knows one session token.
 */
import { Code, ConnectError, createClient, createRouterTransport } from "@connectrpc/connect";
import { AuthService } from "@countersign/gen/countersign/auth/v1/auth_service_pb.js";
import { createLogger, MemoryEventBus } from "@countersign/kit";
import { buildGateway, unconnectedServices } from "../src/app.js";
import { type ListeningGateway, listen } from "../src/http-server.js";

const TOKEN = "session-token-of-ada";
const SESSION = { userId: "0190f5d2-8a3b-7c4d-9e5f-000000000001", email: "ada@example.com" };

const auth = createRouterTransport((router) =>
  router.service(AuthService, {
    createSession: () => ({ token: TOKEN, session: SESSION }),
    getSession(req) {
      if (req.token !== TOKEN) throw new ConnectError("no such session", Code.Unauthenticated);
      return { session: SESSION };
    },
    deleteSession: () => ({}),
  }),
);

async function consoleAt(publicUrl: string): Promise<ListeningGateway> {
  const gateway = buildGateway({
    services: { ...unconnectedServices(), auth: createClient(AuthService, auth) },
    bus: new MemoryEventBus(),
    logger: createLogger({ name: "gateway", level: "silent" }),
    publicUrl,
    ready: async () => {},
  });
  const server = await listen(0, "127.0.0.1");
  server.serve(gateway.app);
  return server;
}

const logIn = (server: ListeningGateway) =>
  fetch(`${server.url}/console/api/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: SESSION.email, password: "correct horse" }),
  });

/** The cookie's name, value and attributes as written, attribute names lower-cased. */
function parseSetCookie(header: string) {
  const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
  const index = pair.indexOf("=");
  return {
    name: pair.slice(0, index),
    value: pair.slice(index + 1),
    attributes: new Map(
      attributes.map((attribute) => {
        const [key = "", value = ""] = attribute.split("=");
        return [key.toLowerCase(), value] as const;
      }),
    ),
  };
}

test("over https the session cookie is __Host-cs_session; Path=/; Secure; HttpOnly; SameSite=Strict with no Domain, and the only one", async () => {
  const server = await consoleAt("https://console.example.com");
  try {
    const reply = await logIn(server);
    expect(reply.status).toBe(201);
    const cookies = reply.headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const cookie = parseSetCookie(cookies[0] as string);
    expect(cookie).toMatchObject({ name: "__Host-cs_session", value: TOKEN });
    expect(cookie.attributes.get("path")).toBe("/");
    expect(cookie.attributes.has("secure")).toBe(true);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Strict");
    expect(cookie.attributes.has("domain")).toBe(false);
  } finally {
    await server.close();
  }
});

test("over https the session is read from __Host-cs_session only: the same token as cs_session is not logged in", async () => {
  const server = await consoleAt("https://console.example.com");
  try {
    const session = (cookie: string) =>
      fetch(`${server.url}/console/api/session`, { headers: { cookie } }).then((r) => r.status);
    expect(await session(`__Host-cs_session=${TOKEN}`)).toBe(200);
    expect(await session(`cs_session=${TOKEN}`)).toBe(401);
  } finally {
    await server.close();
  }
});

test("log-out clears __Host-cs_session with the attributes that set it, or the browser would keep it", async () => {
  const server = await consoleAt("https://console.example.com");
  try {
    const { csrfToken } = (await (await logIn(server)).json()) as { csrfToken: string };
    const reply = await fetch(`${server.url}/console/api/session`, {
      method: "DELETE",
      headers: { cookie: `__Host-cs_session=${TOKEN}`, "x-csrf-token": csrfToken },
    });
    expect(reply.status).toBe(204);
    const cleared = parseSetCookie(reply.headers.getSetCookie()[0] ?? "");
    expect(cleared).toMatchObject({ name: "__Host-cs_session", value: "" });
    expect(cleared.attributes.get("max-age")).toBe("0");
    expect(cleared.attributes.get("path")).toBe("/");
    expect(cleared.attributes.has("secure")).toBe(true);
  } finally {
    await server.close();
  }
});

test("over plain http, where browsers refuse __Host- cookies, it is cs_session: not Secure, still HttpOnly and SameSite=Strict", async () => {
  const server = await consoleAt("http://localhost:8080");
  try {
    const cookies = (await logIn(server)).headers.getSetCookie();
    expect(cookies).toHaveLength(1);
    const cookie = parseSetCookie(cookies[0] as string);
    expect(cookie).toMatchObject({ name: "cs_session", value: TOKEN });
    expect(cookie.attributes.has("secure")).toBe(false);
    expect(cookie.attributes.has("httponly")).toBe(true);
    expect(cookie.attributes.get("samesite")).toBe("Strict");
  } finally {
    await server.close();
  }
});
