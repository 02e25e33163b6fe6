import { isolate } from "@countersign/domain/web";
import { useCallback, useEffect, useRef, useState } from "react";
import { AuthenticationGate } from "./AuthenticationGate";
import { ApiError, getSession, recordViewed, type Session } from "./api";
import { type Brand, BrandProvider, brandOf, titled } from "./Branding";
import { ClosedScreen, SignedScreen, StateScreen } from "./EndScreens";
import { tellHost } from "./frame";
import { useLanguage, useT } from "./i18n/Language";
import { endedBy, type Phase, phaseOf, problemText, whyEnded } from "./phase";
import { SigningView } from "./SigningView";

/** Which request and recipient an event is about. */
function ids(session: Session) {
  return { requestId: session.request.id, recipientId: session.recipient.id };
}

export function App() {
  const [brand, setBrand] = useState<Brand>();
  return (
    <BrandProvider brand={brand}>
      <Screens onBrand={setBrand} />
    </BrandProvider>
  );
}

/** The screen of where the signer stands; each session read gives the page its brand. */
function Screens({ onBrand }: { onBrand: (brand: Brand) => void }) {
  const [phase, setPhase] = useState<Phase>({ kind: "loading" });
  const [handedOver, setHandedOver] = useState(false);
  const { follow, locale } = useLanguage();
  const t = useT();

  const show = useCallback(
    (session: Session) => {
      follow(session.recipient.locale);
      onBrand(brandOf(session));
      setPhase(phaseOf(session));
    },
    [follow, onBrand],
  );

  const load = useCallback(() => {
    setPhase({ kind: "loading" });
    getSession()
      .then(show)
      .catch((error: unknown) => {
        if (error instanceof ApiError && (error.status === 401 || error.status === 410))
          setPhase(endedBy(error));
        else setPhase({ kind: "error", error });
      });
  }, [show]);

  useEffect(load, [load]);

  // The host of a frame hears where the page stands: ready once, then how the session ends — once
  // for each phase, not again when the page is redrawn in another language.
  const toldReady = useRef(false);
  const told = useRef<Phase | undefined>(undefined);
  useEffect(() => {
    if (told.current === phase) return;
    told.current = phase;
    if ((phase.kind === "ready" || phase.kind === "authenticate") && !toldReady.current) {
      toldReady.current = true;
      tellHost({ type: "ready", ...ids(phase.session) });
    } else if (phase.kind === "ended") {
      tellHost({ type: "session_expired", reason: phase.problem?.ended?.reason ?? "session_ended" });
    } else if (phase.kind === "error") {
      tellHost({
        type: "error",
        message: problemText(phase.error, t),
        status: phase.error instanceof ApiError ? phase.error.status : 0,
      });
    }
  }, [phase, t]);

  useEffect(() => {
    if (phase.kind === "ready")
      document.title = titled(
        t("document.title", { title: isolate(phase.session.request.title) }),
        phase.session.branding,
      );
  }, [phase, t]);

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
        <StateScreen testId="loading-state" title={t("loading.title")} busy>
          <p>{t("loading.body")}</p>
        </StateScreen>
      );
    case "error":
      return (
        <StateScreen testId="error-state" title={t("error.title")} tone="error">
          <p>{problemText(phase.error, t)}</p>
          <button type="button" className="button primary" onClick={load}>
            {t("common.tryAgain")}
          </button>
        </StateScreen>
      );
    case "ended":
      return phase.problem ? (
        <StateScreen testId="ended-state" title={t("ended.requestTitle")} tone="neutral">
          <p>{whyEnded(phase.problem, locale)}</p>
        </StateScreen>
      ) : (
        <StateScreen testId="ended-state" title={t("ended.sessionTitle")} tone="neutral">
          <p>{t("ended.sessionBody")}</p>
        </StateScreen>
      );
    case "redirecting":
      return (
        <StateScreen testId="redirecting-state" title={t("redirecting.title")} busy>
          <p>{t("redirecting.body")}</p>
        </StateScreen>
      );
    case "declined":
      return (
        <StateScreen testId="declined-state" title={t("declined.title")} tone="neutral">
          <p>{t("declined.body")}</p>
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
        <StateScreen testId="reassigned-state" title={t("reassigned.title")} tone="neutral">
          <p>{t.rich("reassigned.body", { name: phase.name, email: phase.email })}</p>
        </StateScreen>
      );
    case "closed":
      return <ClosedScreen status={phase.requestStatus} signedDocumentId={phase.signedDocumentId} />;
    case "signed":
      return <SignedScreen phase={phase} onSession={show} />;
    case "ready":
      // In person: the host opened this on their device; the signer takes it before anything is signed.
      if (phase.session.recipient.host && !handedOver) {
        return (
          <StateScreen testId="hand-over-state" title={t("inPerson.title")}>
            <p>
              {t.rich("inPerson.body", {
                host: phase.session.recipient.host.name,
                name: phase.session.recipient.name,
              })}
            </p>
            <button type="button" className="button primary" onClick={() => setHandedOver(true)}>
              {/* One flex item, so the words and the name wrap as one line of text. */}
              <span>{t.rich("inPerson.continue", { name: phase.session.recipient.name })}</span>
            </button>
          </StateScreen>
        );
      }
      return (
        <SigningView
          session={phase.session}
          onEnded={(error) => setPhase(endedBy(error))}
          onSigned={({ recipientStatus, requestStatus, everyoneSigned, redirectUrl }) => {
            tellHost({ type: "completed", ...ids(phase.session), requestStatus, everyoneSigned });
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({
              kind: "signed",
              requestStatus,
              everyoneSigned,
              approved: recipientStatus === "approved",
            });
          }}
          onDeclined={(redirectUrl) => {
            tellHost({ type: "declined", ...ids(phase.session) });
            if (redirectUrl) {
              setPhase({ kind: "redirecting" });
              window.location.assign(redirectUrl);
              return;
            }
            setPhase({ kind: "declined" });
          }}
          onConflict={(session) => session && show(session)}
          onReassigned={(to) => {
            tellHost({ type: "reassigned", ...ids(phase.session) });
            setPhase({ kind: "reassigned", ...to });
          }}
        />
      );
  }
}
