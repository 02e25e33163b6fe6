/**
 * The one client the web apps call the gateway with: openapi-fetch bound to the generated schema
 * (api-schema.ts), so a path names its own body and answer. Every app makes its client with its base
 * path and its own answer to a 401; a problem answer (RFC 9457) throws one ApiError everywhere.
 */
import createClient, { type Middleware } from "openapi-fetch";
import type { components, paths } from "./api-schema";

/** The problem details the gateway answers with; a body that is not one leaves fields out. */
export type Problem = Partial<components["schemas"]["Problem"]>;
export type Violation = components["schemas"]["Problem"]["errors"][number];

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly problem: Problem,
  ) {
    super(problem.detail || problem.title || `The server answered ${status}.`);
    this.name = "ApiError";
  }

  get code(): string {
    return this.problem.code ?? "unknown";
  }

  get detail(): string {
    return this.message;
  }

  get errors(): Violation[] {
    return this.problem.errors ?? [];
  }

  get requestId(): string {
    return this.problem.requestId ?? "";
  }

  /** The message for a field, by its path in the body ("url", "eventTypes[1]"). */
  about(path: string): string | undefined {
    return this.errors.find((e) => e.path === path || e.path.startsWith(`${path}[`))?.message;
  }
}

/** Whatever a call threw, as an ApiError a page can show. */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, { detail: String(error) });
}

export const UNREACHABLE = "Countersign could not be reached. Check your connection and try again.";

/** The problem a failed answer carries, or one made of its status when the body is not JSON. */
export async function problemOf(response: Response): Promise<Problem> {
  try {
    const body: unknown = await response.json();
    if (body && typeof body === "object")
      return { requestId: response.headers.get("x-request-id") ?? undefined, ...(body as Problem) };
  } catch {
    // Not JSON: the status says what there is to say.
  }
  return { status: response.status, title: `The server answered ${response.status}.` };
}

/**
 * The schema's paths under one base path, named by what follows it ("/session" under "/sign/api").
 * The CSRF header the schema declares on state-changing calls is the middleware's to send, so a
 * call does not name it.
 */
export type PathsUnder<Base extends string> = {
  [Path in keyof paths as Path extends `${Base}${infer Rest}` ? Rest : never]: {
    [Method in keyof paths[Path]]: WithoutCsrfHeader<paths[Path][Method]>;
  };
};

type WithoutCsrfHeader<Operation> = Operation extends { parameters: { header: infer Header } }
  ? {
      [Key in keyof Operation]: Key extends "parameters"
        ? Omit<Operation["parameters"], "header"> & { header?: Omit<Header, "X-CSRF-Token"> }
        : Operation[Key];
    }
  : Operation;

export interface ClientOptions {
  /** The base path every call's path follows ("/console/api"). */
  base: string;
  /** The CSRF token to send on a state-changing call, read when the call is made. */
  csrfToken?: () => string;
  /** Told of a 401, with the schema path that answered it. */
  onUnauthorized?: (path: string) => void;
  /** Headers every call sends besides Accept (a framed signing page's session). */
  headers?: Record<string, string>;
}

/** A client for the paths under `base`; every answer that is not 2xx rejects with an ApiError. */
export function createApiClient<Base extends string>(options: ClientOptions & { base: Base }) {
  const client = createClient<PathsUnder<Base>>({
    baseUrl: options.base,
    credentials: "same-origin",
    cache: "no-store",
    headers: { Accept: "application/json", ...options.headers },
  });
  client.use(problemsAsErrors(options));
  return client;
}

function problemsAsErrors({ csrfToken, onUnauthorized }: ClientOptions): Middleware {
  return {
    onRequest({ request }) {
      if (csrfToken && request.method !== "GET") request.headers.set("X-CSRF-Token", csrfToken());
      return request;
    },
    async onResponse({ response, schemaPath }) {
      if (response.ok) return response;
      if (response.status === 401) onUnauthorized?.(schemaPath);
      throw new ApiError(response.status, await problemOf(response));
    },
    onError({ error }) {
      if (error instanceof ApiError) return error;
      return new ApiError(0, { title: "Network error", detail: UNREACHABLE });
    },
  };
}

/**
 * The body of an answer: the client has already thrown for anything but 2xx, so what is left is
 * the answer the schema declares for the call (undefined for a 204).
 */
export async function ok<Data>(pending: Promise<{ data?: Data; response: Response }>): Promise<Data> {
  return (await pending).data as Data;
}
