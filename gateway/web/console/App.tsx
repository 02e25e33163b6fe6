import { Redirect, Route, Switch } from "wouter";
import { LoginPage } from "./LoginPage";
import { Shell } from "./Shell";
import { SessionProvider, useSession } from "./session";
import { ErrorNote } from "./ui";
import { workspacePath } from "./workspace";

export function App() {
  return (
    <SessionProvider>
      <Gate />
    </SessionProvider>
  );
}

function Gate() {
  const { current, recheck } = useSession();
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
