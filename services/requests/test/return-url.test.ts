/**
 * The return URL an embedded signer is sent to: https anywhere, http only on the integrator's own
 * machine, and nothing that a URL parser silently drops (CR, LF, tab) or that has no place in a URL.
 */
import { returnUrlViolations } from "@countersign/domain";

const refused = (url: string) => returnUrlViolations(url).map((v) => v.path);

test("https URLs and http on a loopback host are accepted", () => {
  for (const url of [
    "https://app.example.com/done?x=1",
    "http://localhost:3000/back",
    "http://127.0.0.1/back",
    "http://[::1]:8080/",
  ]) {
    expect(refused(url)).toEqual([]);
  }
});

test("other schemes, plain http to the internet and relative URLs are refused", () => {
  for (const url of [
    "javascript:alert(1)",
    "http://app.example.com/done",
    "ftp://x.example/",
    "/done",
    "data:,x",
  ]) {
    expect(refused(url)).toEqual(["returnUrl"]);
  }
});

test("CR, LF, tab, NUL and spaces are refused even where the URL parser would drop them", () => {
  for (const url of [
    "https://app.example.com/done\r\nSet-Cookie: a=b",
    "https://app.example.com/\tdone",
    "https://app.example.com/a b",
    "https://app.example.com/\u0000",
  ]) {
    expect(returnUrlViolations(url)).toEqual([
      { path: "returnUrl", message: "must not contain spaces or control characters (such as CR or LF)" },
    ]);
  }
});
