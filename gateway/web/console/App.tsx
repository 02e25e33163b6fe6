import { QueryClientProvider } from "@tanstack/react-query";
import { type ComponentType, useState } from "react";
import { Redirect, Route, Switch, useLocation } from "wouter";
import { ConsentPage } from "./account/ConsentPage";
import { ForgotPasswordPage } from "./account/ForgotPasswordPage";
import { InvitationPage } from "./account/InvitationPage";
import { ResetPasswordPage } from "./account/ResetPasswordPage";
import { LoginPage } from "./LoginPage";
import { newQueryClient } from "./queries";
import { Shell } from "./Shell";
import { SessionProvider, useSession } from "./session";
import { ErrorNote } from "./ui";
import { workspacePath } from "./workspace";

export function App() {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <Gate />
      </SessionProvider>
    </QueryClientProvider>
  );
}

/** The pages an e-mail's link or the log-in form opens, whether or not anyone is logged in. */
const ACCOUNT_PAGES: Record<string, ComponentType> = {
  "/invitation": InvitationPage,
  "/forgot-password": ForgotPasswordPage,
  "/reset-password": ResetPasswordPage,
};

function Gate() {
  const { current, recheck } = useSession();
  const [location] = useLocation();
  const AccountPage = ACCOUNT_PAGES[location];
  if (AccountPage) return <AccountPage />;
  if (current.state === "checking") {
    return (
      <p className="boot" role="status">
        Loading Countersign…
      </p>
    );
  }
  if (current.state === "unreachable") {
    return (
      <main className="login">
        <ErrorNote error={current.error} onRetry={recheck} />
      </main>
    );
  }
  if (current.state === "anonymous") return <LoginPage ended={current.ended} />;
  if (location === "/oauth/consent") return <ConsentPage />;
  const { session } = current;
  const first = session.workspaces[0];
  return (
    <Switch>
      <Route path="/w/:workspaceId" nest>
        {(params) => <Shell session={session} workspaceId={params.workspaceId} />}
      </Route>
      <Route>
        {first ? (
          <Redirect to={workspacePath(first.id, "/requests")} replace />
        ) : (
          <main className="login">
            <p className="note info">
              You are not a member of any workspace yet. Ask an Organization Admin to add you.
            </p>
          </main>
        )}
      </Route>
    </Switch>
  );
}
