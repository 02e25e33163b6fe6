/**
 * The compiled route table matches as Express's router did, so that moving the public API onto it
 * changes nothing a client sees: case and a trailing slash do not matter, parameters arrive decoded
 * beside those of the mount, HEAD takes the GET route, OPTIONS lists the methods, a path of no route
 * goes on to what follows, and an error thrown or rejected in a handler reaches the error handler.
 */
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { CompiledRoutes } from "../src/compiled-routes.js";

async function serve(routes: CompiledRoutes): Promise<{ url: string; close(): void }> {
  const app = express();
  const mounted = express.Router({ mergeParams: true });
  mounted.use(routes.dispatch);
  app.use("/workspaces/:workspaceId", mounted);
  app.use((_req, res) => res.status(404).json({ fellThrough: true }));
  app.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => {
    res.status(err.status ?? 500).json({ error: err.message });
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/workspaces/w1`, close: () => server.close() };
}

const echo = (req: Request, res: Response) => {
  res.json({ params: req.params });
};

test("matches case-insensitively with or without a trailing slash; parameters come decoded beside the mount's", async () => {
  const routes = new CompiledRoutes();
  routes.add("get", "/templates/:templateId", [echo]);
  routes.add("get", "/templates/search", [(_req, res) => void res.json({ search: true })]);
  const server = await serve(routes);
  try {
    for (const path of ["/templates/a%20b", "/Templates/a%20b/"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ params: { workspaceId: "w1", templateId: "a b" } });
    }
    // A fixed segment wins over a parameter, whatever order they were added in.
    expect(await (await fetch(`${server.url}/templates/search`)).json()).toEqual({ search: true });
    // Broken percent-encoding where a route would take a parameter is the client's error, as in Express.
    const broken = await fetch(`${server.url}/templates/%E0%A4%A`);
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: "Failed to decode param '%E0%A4%A'" });
    expect(await (await fetch(`${server.url}/elsewhere/%ff`)).json()).toEqual({ fellThrough: true });
  } finally {
    server.close();
  }
});

test("HEAD takes the GET route, OPTIONS lists the path's methods, and anything else goes on", async () => {
  const routes = new CompiledRoutes();
  routes.add("get", "/templates", [echo]);
  routes.add("post", "/templates", [echo]);
  const server = await serve(routes);
  try {
    const head = await fetch(`${server.url}/templates`, { method: "HEAD" });
    expect(head.status).toBe(200);
    const options = await fetch(`${server.url}/templates`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, POST, HEAD");
    expect(await (await fetch(`${server.url}/templates`, { method: "DELETE" })).json()).toEqual({
      fellThrough: true,
    });
    expect(await (await fetch(`${server.url}/nothing`)).json()).toEqual({ fellThrough: true });
    expect((await fetch(`${server.url}/nothing`, { method: "OPTIONS" })).status).toBe(404);
  } finally {
    server.close();
  }
});

test("handlers run in turn; a thrown error, a rejection and next(err) all reach the error handler", async () => {
  const routes = new CompiledRoutes();
  const order: string[] = [];
  routes.add("get", "/chain", [
    (_req, _res, next) => {
      order.push("check");
      next();
    },
    (_req, res) => {
      order.push("handler");
      res.json({ ok: true });
    },
  ]);
  routes.add("get", "/throws", [
    () => {
      throw new Error("thrown");
    },
  ]);
  routes.add("get", "/rejects", [async () => Promise.reject(new Error("rejected"))]);
  routes.add("get", "/passes", [(_req, _res, next) => next(new Error("passed"))]);
  const server = await serve(routes);
  try {
    expect(await (await fetch(`${server.url}/chain`)).json()).toEqual({ ok: true });
    expect(order).toEqual(["check", "handler"]);
    for (const name of ["thrown", "rejected", "passed"]) {
      const path = { thrown: "/throws", rejected: "/rejects", passed: "/passes" }[name];
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: name });
    }
  } finally {
    server.close();
  }
});

test("a second route of the same method and path is refused when it is added", () => {
  const routes = new CompiledRoutes();
  routes.add("get", "/templates/:templateId", [echo]);
  expect(() => routes.add("get", "/templates/:id", [echo])).toThrow();
});
