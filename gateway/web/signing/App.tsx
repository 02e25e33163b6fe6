import { useCallback, useEffect, useState } from "react";
import { AuthenticationGate } from "./AuthenticationGate";
import { ApiError, getSession, recordViewed } from "./api";
import { ClosedScreen, SignedScreen, StateScreen } from "./EndScreens";
import { endedBy, type Phase, phaseOf, sentence } from "./phase";
import { SigningView } from "./SigningView";

export function App() {
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });

  const load = useCallback(() => {
    setPhase({ kind: "loading" });
    getSession()
      .then((session) => setPhase(phaseOf(session)))
      .catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 410))
          setPhase(endedBy(error));
        else
          setPhase({
            kind: "error",
            message: error instanceof Error ? error.message : "Something went wrong loading this request.",
          });
      });
  }, []);

  useEffect(load, [load]);

  useEffect(() => {
    if (phase.kind === "ready") document.title = `Sign: ${phase.session.request.title} · Countersign`;
  }, [phase]);

  // The view is a person's, recorded once the documents are in front of them: a link scanner that
  // fetches the e-mail's link runs no script and records nothing.
  const showing = phase.kind === "ready";
  useEffect(() => {
    // One that cannot be recorded does not stop the signer: signing records that they saw it.
    if (showing) recordViewed().catch(() => {});
  }, [showing]);

  switch (phase.kind) {
    case "loading":
      return (
        <StateScreen testId="loading-state" title="Loading your documents…" busy>
          <p>This takes a moment.</p>
        </StateScreen>
      );
    case "error":
      return (
        <StateScreen testId="error-state" title="We could not load this signing request" tone="error">
          <p>{phase.message}</p>
          <button type="button" className="button primary" onClick={load}>
            Try again
          </button>
        </StateScreen>
      );
    case "ended":
      return phase.why ? (
        <StateScreen testId="ended-state" title="This request can no longer be signed" tone="neutral">
          <p>{sentence(phase.why)}</p>
        </StateScreen>
      ) : (
        <StateScreen testId="ended-state" title="This signing session has ended" tone="neutral">
          <p>For your security, signing sessions expire. Open the link from your e-mail again to continue.</p>
        </StateScreen>
      );
    case "redirecting":
      return (
        <StateScreen testId="redirecting-state" title="Done. Taking you back…" busy>
          <p>You are being returned to the site you came from.</p>
        </StateScreen>
      );
    case "declined":
      return (
        <StateScreen testId="declined-state" title="You declined to sign" tone="neutral">
          <p>
            The sender can see that you declined and why. There is nothing more you need to do; you can close
            this page.
          </p>
        </StateScreen>
      );
    case "authenticate":
      return (
        <AuthenticationGate
          session={phase.session}
          onPassed={load}
          onEnded={(error) => setPhase(endedBy(error))}
        />
      );
    case "reassigned":
      return (
        <StateScreen
          testId="reassigned-state"
          title="You assigned this request to someone else"
          tone="neutral"
        >
          <p>
            {phase.name} ({phase.email}) has been e-mailed a link to sign in your place. The sender can see
            who you chose and why. Your link no longer works; you can close this page.
          </p>
        </StateScreen>
      );
    case "closed":
      return <ClosedScreen status={phase.requestStatus} signedDocumentId={phase.signedDocumentId} />;
    case "signed":
      return <SignedScreen phase={phase} onSession={(session) => setPhase(phaseOf(session))} />;
    case "ready":
      return (
        <SigningView
          session={phase.session}
          onEnded={(error) => setPhase(endedBy(error))}
          onSigned={({ requestStatus, everyoneSigned, redirectUrl }) => {
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({ kind: "signed", requestStatus, everyoneSigned });
          }}
          onDeclined={(redirectUrl) => {
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({ kind: "declined" });
          }}
          onConflict={(session) => session && setPhase(phaseOf(session))}
          onReassigned={(to) => setPhase({ kind: "reassigned", ...to })}
        />
      );
  }
}
