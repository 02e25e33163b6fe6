/**
 * The seal's certificate in Settings → Developer → Configuration: who PDF readers see as the signer,
 * who vouches for it, and when it expires — with a warning from 30 days before, when there is still
 * time to replace it (docs/operations.md, "The seal certificate").
 */
import { call, inWorkspace } from "../api";
import type { SealCertificateInfo } from "../types";
import { Show, useLoad, When } from "../ui";
import { useWorkspace } from "../workspace";
import { expiryWarning } from "./seal-expiry";

export function SealCertificateCard() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoad(
    () => call<SealCertificateInfo>(inWorkspace(workspace.id, "/seal-certificate")),
    [workspace.id],
  );
  return (
    <div className="card" data-testid="seal-certificate">
      <h2>Seal certificate</h2>
      <p className="muted">
        Every completed PDF is sealed with it: PDF readers show its subject as the signer of the seal.
      </p>
      <Show loaded={loaded} what="the seal certificate" onRetry={reload}>
        {({ certificate }) => {
          if (!certificate)
            return (
              <p className="muted">
                No process that seals has started yet; it reports the certificate when it does.
              </p>
            );
          const warning = expiryWarning(certificate.notAfter, new Date());
          return (
            <>
              {warning ? (
                <p className={`note ${warning.tone}`} role="alert" data-testid="seal-expiry-warning">
                  {warning.text}
                </p>
              ) : null}
              <dl className="facts">
                <dt>Subject</dt>
                <dd className="break">{certificate.subject}</dd>
                <dt>Issuer</dt>
                <dd className="break">
                  {certificate.selfSigned
                    ? "Self-signed: PDF readers show the seal's issuer as unknown."
                    : certificate.issuer}
                </dd>
                <dt>Valid</dt>
                <dd data-testid="seal-validity">
                  <When at={certificate.notBefore} dateOnly /> to <When at={certificate.notAfter} dateOnly />
                </dd>
                <dt>Level</dt>
                <dd>
                  PAdES {certificate.padesLevel}
                  {certificate.padesLevel === "B-B"
                    ? " (the seal's time is the server's clock; a time-stamping authority makes it B-LTA)"
                    : " (time-stamped, with what long-term validation needs)"}
                </dd>
                <dt>SHA-256</dt>
                <dd className="mono break small">{certificate.sha256Fingerprint}</dd>
              </dl>
            </>
          );
        }}
      </Show>
    </div>
  );
}
