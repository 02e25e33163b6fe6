/**
 * The seal's certificate in Settings → Developer → Configuration: who PDF readers see as the signer,
 * who vouches for it, and when it expires — with a warning from 30 days before, when there is still
 * time to replace it (docs/operations.md, "The seal certificate"). An Organization Admin can seal
 * the workspace's documents with a certificate of its own (a PKCS#12 file, checked by the server
 * before it is kept) and go back to the deployment's.
 */
import { type FormEvent, useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { FormDialog } from "../FormDialog";
import { base64Of } from "../files";
import { keys, useInvalidate } from "../queries";
import type { SealCertificateInfo } from "../types";
import { Confirm, ErrorNote, Show, TextField, useAction, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { expiryWarning } from "./seal-expiry";

/** As the server takes it (MAX_SEAL_FILE_BYTES). */
const MAX_FILE_BYTES = 64 * 1024;

export function SealCertificateCard() {
  const workspace = useWorkspace();
  const [loaded, reload] = useLoaded(keys.sealCertificate(workspace.id), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/seal-certificate", {
        params: { path: { workspaceId: workspace.id } },
      }),
    ),
  );
  const invalidate = useInvalidate();
  const [uploading, setUploading] = useState(false);
  const [reverting, setReverting] = useState(false);
  const [changed, setChanged] = useState<string>();
  return (
    <div className="card" data-testid="seal-certificate">
      <h2>Seal certificate</h2>
      <p className="muted">
        Every completed PDF is sealed with it: PDF readers show its subject as the signer of the seal.
      </p>
      <Show loaded={loaded} what="the seal certificate" onRetry={reload}>
        {({ certificate }) => {
          const own = certificate?.owner === "workspace";
          const warning = certificate && expiryWarning(certificate.notAfter, new Date(), own);
          return (
            <>
              {changed ? (
                <p className="note success" role="status" data-testid="seal-changed">
                  {changed}
                </p>
              ) : null}
              {warning ? (
                <p className={`note ${warning.tone}`} role="alert" data-testid="seal-expiry-warning">
                  {warning.text}
                </p>
              ) : null}
              {certificate ? (
                <dl className="facts">
                  <dt>Source</dt>
                  <dd data-testid="seal-owner">
                    {own ? (
                      <>
                        This workspace's own, uploaded by {certificate.uploadedBy || "an administrator"} on{" "}
                        <When at={certificate.reportedAt} dateOnly />
                      </>
                    ) : (
                      "The deployment's, set by its operator"
                    )}
                  </dd>
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
                    <When at={certificate.notBefore} dateOnly /> to{" "}
                    <When at={certificate.notAfter} dateOnly />
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
              ) : (
                <p className="muted">
                  No process that seals has started yet; it reports the deployment's certificate when it does.
                  You can upload this workspace's own now.
                </p>
              )}
              <div className="button-row">
                <button type="button" className="button secondary" onClick={() => setUploading(true)}>
                  {own ? "Replace the certificate" : "Upload this workspace's own"}
                </button>
                {own ? (
                  <button type="button" className="button secondary" onClick={() => setReverting(true)}>
                    Use the deployment's seal
                  </button>
                ) : null}
              </div>
            </>
          );
        }}
      </Show>
      {uploading ? (
        <UploadSealDialog
          workspaceId={workspace.id}
          onClose={() => setUploading(false)}
          onUploaded={(info) => {
            setUploading(false);
            setChanged(
              `From now on this workspace's documents are sealed with “${info.certificate?.subject ?? ""}”.`,
            );
            invalidate(keys.sealCertificate(workspace.id));
          }}
        />
      ) : null}
      {reverting ? (
        <Confirm
          title="Seal with the deployment's certificate again?"
          description="The workspace's own certificate and its key are deleted here; documents completed from now on carry the deployment's seal. Documents sealed before keep theirs."
          confirmLabel="Use the deployment's seal"
          danger
          onConfirm={async () => {
            await api.DELETE("/workspaces/{workspaceId}/seal-certificate", {
              params: { path: { workspaceId: workspace.id } },
            });
            setChanged(
              "From now on this workspace's documents are sealed with the deployment's certificate.",
            );
            invalidate(keys.sealCertificate(workspace.id));
          }}
          onClose={() => setReverting(false)}
        />
      ) : null}
    </div>
  );
}

function UploadSealDialog({
  workspaceId,
  onClose,
  onUploaded,
}: {
  workspaceId: string;
  onClose: () => void;
  onUploaded: (info: SealCertificateInfo) => void;
}) {
  const [file, setFile] = useState<File>();
  const [password, setPassword] = useState("");
  const [fileProblem, setFileProblem] = useState<string>();
  const { busy, error, run } = useAction();
  const refused = error?.about("pkcs12");
  const passwordError = error?.about("password");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setFileProblem("Choose the PKCS#12 file (.p12 or .pfx).");
    if (file.size > MAX_FILE_BYTES)
      return setFileProblem("The file is larger than 64 KiB: a seal is a key and a few certificates.");
    setFileProblem(undefined);
    void run("upload", async () =>
      onUploaded(
        await ok(
          api.PUT("/workspaces/{workspaceId}/seal-certificate", {
            params: { path: { workspaceId } },
            body: { pkcs12: await base64Of(file), password },
          }),
        ),
      ),
    );
  };
  const shownFileError = fileProblem ?? refused;
  return (
    <FormDialog
      title="Seal this workspace's documents with its own certificate"
      description="A PKCS#12 file (.p12, .pfx) with the private key and its certificate, issued for signing documents. It is checked before it is used, then kept encrypted; the key is never shown again."
      onClose={onClose}
      testId="upload-seal-dialog"
      busy={busy !== undefined}
      onSubmit={submit}
      submitLabel="Check and use it"
    >
      <TextField
        label="Certificate file"
        type="file"
        accept=".p12,.pfx,application/x-pkcs12"
        data-testid="seal-file"
        onChange={(e) => {
          setFile(e.target.files?.[0]);
          setFileProblem(undefined);
        }}
        error={shownFileError}
      />
      <TextField
        label="Password"
        type="password"
        optional
        value={password}
        autoComplete="off"
        onChange={(e) => setPassword(e.target.value)}
        error={passwordError}
      />
      {error && !refused && !passwordError ? <ErrorNote error={error} /> : null}
    </FormDialog>
  );
}
