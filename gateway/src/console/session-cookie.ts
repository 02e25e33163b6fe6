/**
 * The console's session cookie, read and written only here so that a deployment has one name for it.
 * Over https it is `__Host-cs_session`: the browser then insists on Secure, Path=/ and no Domain,
 * so a sibling subdomain can neither set nor shadow it. Browsers refuse `__Host-` cookies that are
 * not Secure, so over plain http (local development, the tests) it is `cs_session`.
 */
import type { Request, Response } from "express";
import { type CookieOptions, readCookie, setCookie } from "../cookies.js";

const MAX_AGE_SECONDS = 12 * 60 * 60;

export interface SessionCookie {
  readonly name: string;
  /** The session token the request carries, if any. */
  read(req: Request): string | undefined;
  write(res: Response, token: string): void;
  clear(res: Response): void;
}

export function sessionCookie(publicUrl: string): SessionCookie {
  const secure = new URL(publicUrl).protocol === "https:";
  const name = secure ? "__Host-cs_session" : "cs_session";
  // Strict: the console is a same-origin app, so only its own calls need the cookie.
  const options: CookieOptions = { httpOnly: true, secure, path: "/", sameSite: "strict" };
  return {
    name,
    read: (req) => readCookie(req, name),
    write: (res, token) => setCookie(res, name, token, { ...options, maxAgeSeconds: MAX_AGE_SECONDS }),
    clear: (res) => setCookie(res, name, "", { ...options, maxAgeSeconds: 0 }),
  };
}
