/** A verification report in words: the verdict first, then what it rests on. */
import type { RefObject } from "react";
import type { CertificateFacts, SignatureReport, VerificationReport } from "./api";

const HEADLINES: Record<VerificationReport["verdict"], { title: string; mark: string; tone: string }> = {
  intact: { title: "Intact: this is the document as it was sealed", mark: "✓", tone: "good" },
  modified: { title: "Changed after it was sealed", mark: "!", tone: "warn" },
  invalid: { title: "The seal does not hold", mark: "✕", tone: "bad" },
  unsigned: { title: "This PDF is not sealed", mark: "?", tone: "warn" },
  unreadable: { title: "This file cannot be read as a PDF", mark: "?", tone: "warn" },
};

const LEVELS: Record<VerificationReport["level"], string> = {
  none: "No PAdES level",
  "B-B": "PAdES B-B (basic)",
  "B-T": "PAdES B-T (time-stamped)",
  "B-LT": "PAdES B-LT (long-term validation data)",
  "B-LTA": "PAdES B-LTA (long-term, archival time-stamp)",
};

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString(undefined, { dateStyle: "long", timeStyle: "long" }) : "—";

function Certificate({ facts }: { facts: CertificateFacts }) {
  return (
    <>
      “{facts.commonName}”
      <span className="muted">
        {" "}
        {facts.selfSigned
          ? "(self-signed: trust it only if you know this service's certificate)"
          : `issued by “${facts.issuer}”`}
      </span>
    </>
  );
}

function SignatureRow({ signature, intact }: { signature: SignatureReport; intact: boolean }) {
  const isStamp = signature.kind === "document-timestamp";
  return (
    <li className={`signature ${signature.valid ? "is-valid" : "is-invalid"}`} data-testid="signature">
      <p className="signature-head">
        <span className="signature-mark" aria-hidden="true">
          {signature.valid ? "✓" : "✕"}
        </span>
        <strong>{isStamp ? "Document time-stamp" : "Signature"}</strong> “{signature.field}” —{" "}
        {signature.valid ? "valid" : "not valid"}
      </p>
      {signature.problem ? <p className="problem">{signature.problem}.</p> : null}
      <dl className="facts">
        {signature.signer ? (
          <>
            <dt>{isStamp ? "Time-stamping authority" : "Signed by"}</dt>
            <dd>
              <Certificate facts={signature.signer} />
            </dd>
          </>
        ) : null}
        {signature.timestampTime ? (
          <>
            <dt>Time-stamped</dt>
            <dd>
              {when(signature.timestampTime)}
              {!isStamp && signature.timestampAuthority ? (
                <span className="muted"> by “{signature.timestampAuthority}”</span>
              ) : null}
            </dd>
          </>
        ) : null}
        {!isStamp ? (
          <>
            <dt>Time it claims</dt>
            <dd>
              {when(signature.claimedTime)}
              <span className="muted"> (the signer's own clock)</span>
            </dd>
          </>
        ) : null}
        <dt>Covers</dt>
        <dd>
          {signature.coversWholeFile
            ? "the whole file"
            : intact
              ? "the file as it was then (validation data and time-stamps were added after it)"
              : "the file as it was then, not what was added after it"}
        </dd>
      </dl>
    </li>
  );
}

export function Report({
  name,
  report,
  headingRef,
}: {
  name: string;
  report: VerificationReport;
  headingRef: RefObject<HTMLHeadingElement | null>;
}) {
  const headline = HEADLINES[report.verdict];
  return (
    <section className={`card result ${headline.tone}`} data-testid="report" data-verdict={report.verdict}>
      <div className="verdict">
        <span className="verdict-mark" aria-hidden="true">
          {headline.mark}
        </span>
        <div>
          <h2 ref={headingRef} tabIndex={-1}>
            {headline.title}
          </h2>
          <p className="file-name muted">{name}</p>
        </div>
      </div>
      <p className="summary" data-testid="summary">
        {report.summary}
      </p>

      {report.changesAfterSeal.length > 0 ? (
        <>
          <h3>What changed after the seal</h3>
          <ul className="changes" data-testid="changes">
            {report.changesAfterSeal.map((change) => (
              <li key={change}>{change}</li>
            ))}
          </ul>
        </>
      ) : null}

      {report.verdict !== "unreadable" && report.verdict !== "unsigned" ? (
        <>
          <h3>Evidence</h3>
          <dl className="facts">
            <dt>Level</dt>
            <dd>
              <strong data-testid="level">{LEVELS[report.level]}</strong>
              <span className="muted"> — {report.levelReason}</span>
            </dd>
            {report.validationData ? (
              <>
                <dt>Validation data</dt>
                <dd>
                  {report.validationData.certificates} certificates, {report.validationData.ocspResponses}{" "}
                  OCSP answers, {report.validationData.crls} revocation lists, kept in the file
                </dd>
              </>
            ) : null}
          </dl>
          <h3>Signatures</h3>
          <ul className="signatures">
            {report.signatures.map((signature) => (
              <SignatureRow
                key={signature.field}
                signature={signature}
                intact={report.verdict === "intact"}
              />
            ))}
          </ul>
        </>
      ) : null}

      {report.requestId ? (
        <>
          <h3>Countersign's record</h3>
          <dl className="facts" data-testid="record">
            <dt>Request</dt>
            <dd className="mono">{report.requestId}</dd>
            {report.stored ? (
              <>
                <dt>Stored copy</dt>
                <dd data-testid="stored">
                  {report.stored.identical
                    ? "This file is byte for byte the sealed document stored when the request was completed."
                    : "This file differs from the sealed document stored when the request was completed."}
                </dd>
                <dt>Completed</dt>
                <dd>{when(report.stored.completedAt)}</dd>
                <dt>Audit trail</dt>
                <dd className="mono">{report.stored.auditChainHead || "its hash chain does not verify"}</dd>
              </>
            ) : (
              <>
                <dt>Stored copy</dt>
                <dd data-testid="stored">This service has no completed request with this id.</dd>
              </>
            )}
          </dl>
        </>
      ) : null}

      <dl className="facts fingerprint">
        <dt>SHA-256 of this file</dt>
        <dd className="mono">{report.sha256}</dd>
      </dl>
    </section>
  );
}
