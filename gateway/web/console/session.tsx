/**
 * The logged-in user: read at start, set by log-in, ended by log-out or by any 401 from the API.
 * A session's end empties the cache of what it read, for the next user not to see it.
 */
import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { ok } from "../shared/api-client";
import { type ApiError, api, rememberCsrfToken, SESSION_ENDED } from "./api";
import type { Session } from "./types";

type SessionState =
  | { state: "checking" }
  | { state: "anonymous"; ended: boolean }
  | { state: "unreachable"; error: ApiError }
  | { state: "signed-in"; session: Session };

interface SessionApi {
  current: SessionState;
  logIn(email: string, password: string): Promise<void>;
  logOut(): Promise<void>;
  recheck(): void;
  /** Takes a session another call opened (accepting an invitation logs in). */
  adopt(session: Session): void;
}

const SessionContext = createContext<SessionApi | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState<SessionState>({ state: "checking" });
  const check = useCallback(() => {
    ok(api.GET("/session")).then(
      (session) => {
        rememberCsrfToken(session.csrfToken);
        setCurrent({ state: "signed-in", session });
      },
      (error: ApiError) =>
        setCurrent(
          error.status === 401 ? { state: "anonymous", ended: false } : { state: "unreachable", error },
        ),
    );
  }, []);
  useEffect(check, [check]);
  useEffect(() => {
    const ended = () => {
      queryClient.clear();
      setCurrent((before) => ({ state: "anonymous", ended: before.state === "signed-in" }));
    };
    window.addEventListener(SESSION_ENDED, ended);
    return () => window.removeEventListener(SESSION_ENDED, ended);
  }, [queryClient]);
  const sessionApi = useMemo<SessionApi>(
    () => ({
      current,
      async logIn(email, password) {
        const session = await ok(api.POST("/session", { body: { email, password } }));
        rememberCsrfToken(session.csrfToken);
        setCurrent({ state: "signed-in", session });
      },
      async logOut() {
        await api.DELETE("/session").catch((error: ApiError) => {
          // Already logged out elsewhere: the outcome the user asked for.
          if (error.status !== 401) throw error;
        });
        rememberCsrfToken("");
        queryClient.clear();
        setCurrent({ state: "anonymous", ended: false });
      },
      recheck: check,
      adopt(session) {
        rememberCsrfToken(session.csrfToken);
        setCurrent({ state: "signed-in", session });
      },
    }),
    [current, check, queryClient],
  );
  return <SessionContext.Provider value={sessionApi}>{children}</SessionContext.Provider>;
}

/** The session where there is one: none in an embedded view, which acts for a key, not a person. */
export function useOptionalSession(): SessionApi | undefined {
  return useContext(SessionContext) ?? undefined;
}

export function useSession(): SessionApi {
  const provided = useContext(SessionContext);
  if (!provided) throw new Error("useSession outside SessionProvider");
  return provided;
}
