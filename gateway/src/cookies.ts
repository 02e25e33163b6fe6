/** Reading and writing cookies (the console's session cookie, the signing session's). */
import { parseCookie, stringifySetCookie } from "cookie";
import type { Request, Response } from "express";

export function readCookie(req: Request, name: string): string | undefined {
  const header = req.get("cookie");
  return header ? parseCookie(header)[name] : undefined;
}

export interface CookieOptions {
  httpOnly: boolean;
  secure: boolean;
  /** Omitted: the cookie ends with the browser session. */
  maxAgeSeconds?: number;
  path?: string;
  sameSite?: "lax" | "strict";
}

export function setCookie(res: Response, name: string, value: string, options: CookieOptions): void {
  res.append(
    "Set-Cookie",
    stringifySetCookie({
      name,
      value,
      path: options.path ?? "/",
      sameSite: options.sameSite ?? "lax",
      maxAge: options.maxAgeSeconds,
      httpOnly: options.httpOnly,
      secure: options.secure,
    }),
  );
}
