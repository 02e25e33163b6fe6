/** Whose request this is and who signs it: the page's header, compact on a phone (the message folded). */
import type { Session } from "./api";
import { BrandName } from "./Branding";
import { Folded } from "./Folded";
import { LanguageSwitcher, useT } from "./i18n/Language";

interface SigningHeaderProps {
  session: Session;
  viewing: boolean;
  approving: boolean;
  busy: boolean;
  compact: boolean;
  onReassign: () => void;
}

export function SigningHeader({
  session,
  viewing,
  approving,
  busy,
  compact,
  onReassign,
}: SigningHeaderProps) {
  const t = useT();
  const { request, recipient: signer } = session;
  const messageFrom = t.rich("header.messageFrom", {
    sender: request.sender,
    hasSender: request.sender ? "yes" : "no",
  });
  return (
    <header className="top">
      <div className="top-inner">
        <div className="top-bar">
          <BrandName />
          <LanguageSwitcher />
        </div>
        <h1 data-testid="request-title" dir="auto">
          {request.title}
        </h1>
        {request.sender ? (
          <p className="signer" data-testid="request-sender">
            {t.rich("header.from", { sender: request.sender })}
          </p>
        ) : null}
        <p className="signer">
          {t.rich(viewing ? "header.viewingAs" : approving ? "header.approvingAs" : "header.signingAs", {
            name: signer.name,
            email: signer.email,
          })}
        </p>
        {signer.host ? (
          <p className="signer" data-testid="hosted-by">
            {t.rich("header.hostedBy", { host: signer.host.name })}
          </p>
        ) : null}
        {session.canReassign ? (
          <p className="reassign-offer">
            {t("reassign.offer")}{" "}
            <button
              type="button"
              className="link-button"
              data-testid="reassign"
              disabled={busy}
              onClick={onReassign}
            >
              {t("reassign.title")}
            </button>
          </p>
        ) : null}
        {request.message ? (
          <Folded compact={compact} summary={messageFrom} className="message-fold">
            <blockquote className="message" data-testid="request-message">
              {compact ? null : <span className="message-label">{messageFrom}</span>}
              <span dir="auto" className="message-text">
                {request.message}
              </span>
            </blockquote>
          </Folded>
        ) : null}
      </div>
    </header>
  );
}
