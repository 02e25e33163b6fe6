/**
 * A service knows its callers by their tokens' digests: a malformed COUNTERSIGN_CALLERS stops the
 * start naming what is wrong, a caller being rotated has both its tokens accepted, and health
 * checks stay open to probes that present none.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { callerInterceptor, parseCallers, tokenDigest } from "../src/service-identity.js";

const KNOWN = ["gateway", "operator"];

async function answer(callers: string, service: string, token?: string): Promise<string> {
  const intercept = callerInterceptor({
    callers: parseCallers(callers, KNOWN),
    policy: { gateway: ["GetSession"] },
  });
  try {
    await intercept(async () => ({}) as never)({
      service: { typeName: service },
      method: { name: "GetSession" },
      header: new Headers(token ? { authorization: `Bearer ${token}` } : {}),
    } as never);
    return "ok";
  } catch (err) {
    return Code[ConnectError.from(err).code] as string;
  }
}

test("a caller listed twice, old and new token, is accepted with either while it is rotated", async () => {
  const callers = `gateway=${tokenDigest("old-token")}, gateway=${tokenDigest("new-token")}`;
  expect(await answer(callers, "countersign.auth.v1.AuthService", "old-token")).toBe("ok");
  expect(await answer(callers, "countersign.auth.v1.AuthService", "new-token")).toBe("ok");
  expect(await answer(callers, "countersign.auth.v1.AuthService", "other-token")).toBe("Unauthenticated");
  expect(await answer(callers, "countersign.auth.v1.AuthService")).toBe("Unauthenticated");
  expect(await answer(callers, "grpc.health.v1.Health")).toBe("ok");
});

test("a malformed list names the caller or the digest that is wrong", () => {
  expect(() => parseCallers(`webhooks=${tokenDigest("x")}`, KNOWN)).toThrow(
    /"webhooks" is not a caller; callers are gateway, operator/,
  );
  expect(() => parseCallers("gateway=not-a-digest", KNOWN)).toThrow(
    /gateway's value must be the SHA-256 of its token/,
  );
  expect(() => parseCallers("set-in-your-overlay", KNOWN)).toThrow(/COUNTERSIGN_CALLERS/);
});
