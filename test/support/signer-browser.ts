/** A signer's browser without the page: the session cookie a link sets, sent back on every call. */
import { call, type Reply } from "./http.js";

/** A browser's hold on one signing session: the cookie the link set, sent back on every call. */
export class SignerBrowser {
  cookie = "";

  constructor(private readonly gateway: string) {}

  async open(link: string): Promise<Response> {
    const path = new URL(link).pathname;
    const res = await fetch(`${this.gateway}${path}`, { redirect: "manual" });
    const set = res.headers.get("set-cookie");
    if (set) this.cookie = set.split(";")[0] as string;
    return res;
  }

  /** What the signing page does once it loads: reads the session, then says the signer sees it. */
  async show(): Promise<Reply> {
    const session = await this.call("/sign/api/session");
    if (session.status === 200) {
      const viewed = await fetch(`${this.gateway}/sign/api/viewed`, {
        method: "POST",
        headers: { cookie: this.cookie },
      });
      if (viewed.status !== 204) throw new Error(`POST /sign/api/viewed answered ${viewed.status}`);
    }
    return session;
  }

  call(path: string, json?: unknown, contentType = "application/json"): Promise<Reply> {
    return call(this.gateway, path, {
      method: json === undefined ? "GET" : "POST",
      headers: { cookie: this.cookie, ...(json === undefined ? {} : { "content-type": contentType }) },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
  }
}
