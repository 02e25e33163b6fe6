/** The documents with the signer's fields, and the bar to finish or decline. */
import { useCallback, useEffect, useMemo, useReducer, useRef, useState } from "react";
import {
  ApiError,
  attachFile,
  type DateForm,
  dateSigned,
  decline,
  type Field,
  type FieldValue,
  getSession,
  type Session,
  type SignatureValue,
  type SubmitResult,
  submit,
} from "./api";
import { DateDialog } from "./DateDialog";
import { DeclineDialog } from "./DeclineDialog";
import { FieldBox } from "./FieldBox";
import { FieldError } from "./FieldError";
import { FilledBox } from "./FilledBox";
import { Folded, useCompact } from "./Folded";
import {
  fieldLabel,
  groupBounds,
  groupOf,
  initialsOf,
  isFillable,
  isFilled,
  numberProblem,
  requirements,
  shownOf,
  sortFields,
  submittedValues,
  type Values,
} from "./fields";
import { useFieldEvents } from "./frame";
import { useLanguage, useT } from "./i18n/Language";
import { DocumentView } from "./PdfView";
import { phaseKind, problemText } from "./phase";
import { ReassignDialog } from "./ReassignDialog";
import { SignatureDialog } from "./SignatureDialog";
import { SigningHeader } from "./SigningHeader";
import { initialForm, type SignatureKind, signingForm } from "./signing-form";
import { type Reach, TOUCH_TARGET, touchReaches } from "./touch-reach";
import { readableZoom, ZoomControl } from "./ZoomControl";

/** The fields typed into, whose text the page draws as small as the document does. */
const TYPED = new Set<Field["type"]>(["text", "name", "email", "number"]);

interface SigningViewProps {
  session: Session;
  onEnded: (error: ApiError) => void;
  onSigned: (result: SubmitResult) => void;
  onDeclined: (redirectUrl?: string | null) => void;
  onConflict: (session: Session | null) => void;
  onReassigned: (to: { name: string; email: string }) => void;
}

function useElementWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => setWidth(Math.floor(el.getBoundingClientRect().width));
    update();
    const observer = new ResizeObserver(update);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/**
 * How the page writes dates — its language and the device's time zone — and today as a date signed
 * field of that form will read when sealed, as the service writes it (not as this browser would):
 * what the signer sees is what the PDF says. Empty until the service answers.
 */
function useDateSigned(needed: boolean): { form: DateForm; today: string } {
  const { locale } = useLanguage();
  const form = useMemo<DateForm>(
    () => ({ locale, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone ?? "UTC" }),
    [locale],
  );
  const [today, setToday] = useState("");
  useEffect(() => {
    if (!needed) return;
    let current = true;
    dateSigned(form).then(
      (text) => current && setToday(text),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [form, needed]);
  return { form, today };
}

/**
 * The days picked in date fields as the service writes them in the page's form (kept with the day
 * when signed; the sealed PDF writes the day, YYYY-MM-DD), by day: asked once each, when picked.
 */
function useDayTexts(fields: Field[], values: Values, form: DateForm): Record<string, string> {
  const [texts, setTexts] = useState<{ form: DateForm; byDay: Record<string, string> }>({ form, byDay: {} });
  const byDay = texts.form === form ? texts.byDay : {};
  const wanted = fields
    .filter((f) => f.type === "date")
    .map((f) => values[f.id])
    .filter((day): day is string => typeof day === "string" && day !== "" && !(day in byDay));
  const key = [...new Set(wanted)].join(",");
  useEffect(() => {
    if (!key) return;
    let current = true;
    for (const day of key.split(",")) {
      dateSigned(form, day).then(
        (text) =>
          current &&
          setTexts((now) => ({
            form,
            byDay: { ...(now.form === form ? now.byDay : {}), [day]: text },
          })),
        () => undefined,
      );
    }
    return () => {
      current = false;
    };
  }, [key, form]);
  return byDay;
}

export function SigningView({
  session,
  onEnded,
  onSigned,
  onDeclined,
  onConflict,
  onReassigned,
}: SigningViewProps) {
  const [reassigning, setReassigning] = useState(false);
  const fields = useMemo(() => sortFields(session), [session]);
  const [form, dispatch] = useReducer(signingForm, session, initialForm);
  const { values, errors, consent, consentError, banner, dialogField, adopted, status, alert } = form;
  const [columnRef, width] = useElementWidth<HTMLDivElement>();
  const compact = useCompact();
  // On a phone the agreement shows two lines until the signer asks for all of it.
  const [consentRead, setConsentRead] = useState(false);
  const consentFolded = compact && !consentRead;
  const [zoom, setZoom] = useState(1);
  const elements = useRef(new Map<string, HTMLElement>());
  const current = useRef<string | null>(null);
  const consentRef = useRef<HTMLInputElement>(null);
  const finishRef = useRef<HTMLButtonElement>(null);
  const t = useT();
  // A viewer's part is to open the documents, which the page has recorded: nothing to fill or finish.
  const viewing = session.recipient.kind === "viewer";
  // An approver fills nothing: their agreement, then Approve.
  const approving = session.recipient.kind === "approver";
  const { form: dateForm, today } = useDateSigned(fields.some((f) => f.type === "date_signed"));

  const shown = useMemo(() => shownOf(fields, values), [fields, values]);
  const required = requirements(fields, values, shown, t);
  const done = required.filter((r) => r.filled).length;
  const allDone = done === required.length;
  useFieldEvents(
    fields.filter((f) => isFilled(f, values[f.id])).map((f) => f.id),
    required.length - done,
  );
  const [dateField, setDateField] = useState<Field | null>(null);
  const dayTexts = useDayTexts(fields, values, dateForm);
  const [attaching, setAttaching] = useState<ReadonlySet<string>>(new Set());
  const busy = form.busy !== null;
  const progressText =
    required.length === 0 ? t("progress.none") : t("progress.count", { done, total: required.length });
  const finishReason = !allDone
    ? t("finish.fillIn", { count: required.length - done })
    : !consent && !approving
      ? t("finish.consent")
      : "";

  // Announce progress to screen readers when it changes (not on first render).
  const firstProgress = useRef(true);
  useEffect(() => {
    if (firstProgress.current) {
      firstProgress.current = false;
      return;
    }
    dispatch({
      type: "announced",
      status: allDone ? t("progress.allDone", { total: required.length }) : progressText,
    });
  }, [progressText, allDone, required.length, t]);

  const register = useCallback((id: string, el: HTMLElement | null) => {
    if (el) elements.current.set(id, el);
    else elements.current.delete(id);
  }, []);

  // Focus requested while the controls are still disabled (mid-submit) waits for the next render.
  const pendingFocus = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const el = pendingFocus.current;
    if (el && !(el as HTMLInputElement).disabled) {
      pendingFocus.current = null;
      focusElement(el);
    }
  });

  const focusElement = (el: HTMLElement | null | undefined) => {
    if (!el) return;
    if ((el as HTMLInputElement).disabled) {
      pendingFocus.current = el;
      return;
    }
    // Sideways first, at once, in a zoomed-in page's column: scrolled smoothly together with the window,
    // Chromium left the box past the column's edge.
    const column = el.closest(".documents")?.getBoundingClientRect();
    const at = el.getBoundingClientRect();
    if (column && (at.left < column.left || at.right > column.right)) {
      el.closest(".documents")?.scrollBy({ left: (at.left + at.right - column.left - column.right) / 2 });
    }
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    el.scrollIntoView({ block: "center", behavior: reduce ? "auto" : "smooth" });
    el.focus({ preventScroll: true });
  };

  // A field to show once the page has been drawn at the zoom chosen for it.
  const focusAfterZoom = useRef<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the zoom has been laid out.
  useEffect(() => {
    const id = focusAfterZoom.current;
    focusAfterZoom.current = null;
    if (id) focusElement(elements.current.get(id));
  }, [zoom]);

  const setValue = useCallback(
    (id: string, value: FieldValue) => dispatch({ type: "entered", id, value }),
    [],
  );
  /** A value entered; choosing a radio button lets go of the others of its group. */
  const change = (id: string, value: FieldValue) => {
    const field = fields.find((f) => f.id === id);
    if (field?.type === "radio" && value === true) {
      for (const member of groupOf(field, fields)) setValue(member.id, member.id === id);
      return;
    }
    setValue(id, value);
  };
  const announce = (text: string) => dispatch({ type: "announced", status: text });
  const refuse = (message: string) =>
    dispatch({ type: "submission-refused", banner: message, alert: message });

  const nextField = () => {
    const order = fields.filter((f) => isFillable(f) && shown.get(f.id));
    const start = current.current ? order.findIndex((f) => f.id === current.current) : -1;
    const rotated = [...order.slice(start + 1), ...order.slice(0, start + 1)];
    const missing = new Set(required.filter((r) => !r.filled).map((r) => r.id));
    const pick =
      rotated.find((f) => missing.has(f.id)) ??
      (!consent
        ? null
        : rotated.find((f) => f.type !== "checkbox" && f.type !== "radio" && !isFilled(f, values[f.id])));
    if (pick) {
      // On a phone a box to type in is brought up readable: the page zooms in, then the box is shown.
      const pageWidth = session.documents.find((d) => d.id === pick.documentId)?.pages[pick.page - 1]?.width;
      const readable =
        compact && TYPED.has(pick.type) && pageWidth ? readableZoom(pick, pageWidth, width, zoom) : zoom;
      if (readable !== zoom) {
        focusAfterZoom.current = pick.id;
        setZoom(readable);
        return;
      }
      focusElement(elements.current.get(pick.id));
      return;
    }
    if (!consent) {
      focusElement(consentRef.current);
      announce(t("next.consent"));
      return;
    }
    focusElement(finishRef.current);
    announce(t("next.finish"));
  };

  const openSignature = (field: Field) => {
    const kind = field.type as SignatureKind;
    const existing = adopted[kind];
    if (existing && !values[field.id]) {
      setValue(field.id, existing);
      announce(t("applied.again", { label: fieldLabel(field, t), page: field.page }));
      return;
    }
    dispatch({ type: "signature-opened", field });
  };

  const applySignature = (value: SignatureValue, applyAll: boolean) => {
    if (!dialogField) return;
    const kind = dialogField.type as SignatureKind;
    const targets = applyAll ? fields.filter((f) => f.type === kind) : [dialogField];
    dispatch({
      type: "signature-adopted",
      kind,
      value,
      ids: targets.map((f) => f.id),
      status:
        targets.length > 1
          ? t("applied.all", { kind, count: targets.length })
          : t("applied.one", { label: fieldLabel(dialogField, t), page: dialogField.page }),
    });
  };

  const attach = async (field: Field, file: File) => {
    setAttaching((now) => new Set(now).add(field.id));
    try {
      setValue(field.id, await attachFile(field.id, file));
      announce(
        t("field.attachedFile", { filename: file.name, label: fieldLabel(field, t), page: field.page }),
      );
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 410)) {
        onEnded(error);
        return;
      }
      const message =
        error instanceof ApiError && error.status === 413
          ? t("attach.tooLarge")
          : error instanceof ApiError && error.status === 415
            ? t("attach.wrongType")
            : (error instanceof ApiError && error.problem.errors?.map((e) => e.message).join(" ")) ||
              t("attach.failed");
      dispatch({ type: "field-refused", id: field.id, message });
    } finally {
      setAttaching((now) => {
        const next = new Set(now);
        next.delete(field.id);
        return next;
      });
    }
  };

  const finish = async () => {
    if (busy) return;
    if (!allDone || !consent) {
      dispatch({ type: "alerted", alert: finishReason });
      return;
    }
    dispatch({ type: "submitted" });
    try {
      const result = await submit(submittedValues(fields, values, shown), dateForm);
      onSigned(result);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        refuse(t("common.somethingWrong"));
        return;
      }
      if (error.status === 401 || error.status === 410) {
        onEnded(error);
        return;
      }
      if (error.status === 422 && error.problem.errors?.length) {
        const byField: Record<string, string> = {};
        const other: string[] = [];
        let consentMessage: string | null = null;
        for (const e of error.problem.errors) {
          const match = /^values\.(.+)$/.exec(e.path);
          if (match?.[1] && fields.some((f) => f.id === match[1])) byField[match[1]] = e.message;
          else if (e.path === "consent") consentMessage = e.message;
          else other.push(e.message);
        }
        const count = Object.keys(byField).length + (consentMessage ? 1 : 0);
        dispatch({
          type: "submission-refused",
          errors: byField,
          consentError: consentMessage,
          banner: other.length ? other.join(" ") : null,
          alert: `${t("submit.problems", { count: count || other.length })}${other.length ? ` ${other.join(" ")}` : ""}`,
        });
        const first = fields.find((f) => byField[f.id]);
        if (first) focusElement(elements.current.get(first.id));
        else if (consentMessage) focusElement(consentRef.current);
        return;
      }
      if (error.status === 409) {
        refuse(error.problem.detail || t("submit.closed"));
        // Show the right end state if the session tells us more.
        getSession()
          .then((s) => {
            if (phaseKind(s) !== "ready") onConflict(s);
          })
          .catch(() => undefined);
        return;
      }
      refuse(problemText(error, t));
    }
  };

  const confirmDecline = async (reason: string) => {
    dispatch({ type: "declined" });
    try {
      const result = await decline(reason);
      onDeclined(result.redirectUrl);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 410)) {
        onEnded(error);
        return;
      }
      const message =
        (error instanceof ApiError && error.problem.errors?.map((e) => e.message).join(" ")) ||
        problemText(error, t);
      dispatch({ type: "decline-refused", error: message });
    }
  };

  const signer = session.recipient;
  const modalOpen = dialogField !== null || dateField !== null || form.declineOpen || reassigning;

  return (
    <>
      <div className="app" inert={modalOpen}>
        <a className="skip-link" href="#documents">
          {t("header.skip")}
        </a>
        <SigningHeader
          session={session}
          viewing={viewing}
          approving={approving}
          busy={busy}
          compact={compact}
          onReassign={() => setReassigning(true)}
        />

        <main className="content">
          {session.test ? (
            <p className="notice test" data-testid="test-notice">
              {t("test.notice")}
            </p>
          ) : null}
          {viewing || approving ? (
            <section className="consent-card" aria-labelledby="viewer-title" data-testid="viewer-notice">
              <h2 id="viewer-title" className="viewer-title">
                {t(viewing ? "viewer.title" : "approver.title")}
              </h2>
              <p className="hint">{t(viewing ? "viewer.body" : "approver.body")}</p>
            </section>
          ) : (
            <section className="consent-card" aria-labelledby="consent-title">
              <h2 id="consent-title" className="visually-hidden">
                {t("howTo.title")}
              </h2>
              <Folded compact={compact} summary={t("howTo.title")}>
                <p className="hint">
                  {t.rich("howTo.body")}
                  {required.length > 0 ? ` ${t("howTo.requiredMark")}` : ""}
                </p>
              </Folded>
            </section>
          )}

          {banner ? (
            <div className="notice error" role="alert" data-testid="error-banner">
              {banner}
            </div>
          ) : null}

          <ZoomControl zoom={zoom} onZoom={setZoom} />
          <div id="documents" ref={columnRef} className="documents" tabIndex={-1}>
            {session.documents.map((doc, index) => (
              <DocumentView
                key={doc.id}
                doc={doc}
                index={index}
                total={session.documents.length}
                width={Math.floor(width * zoom)}
                onUnauthorized={onEnded}
                renderOverlay={(page, scale) => {
                  const onPage = fields.filter(
                    (f) => f.documentId === doc.id && f.page === page && shown.get(f.id),
                  );
                  // In CSS pixels, where the touch target is measured.
                  const reaches = touchReaches(
                    onPage.map((f) => ({
                      x: f.x * scale,
                      y: f.y * scale,
                      width: f.width * scale,
                      height: f.height * scale,
                    })),
                    TOUCH_TARGET,
                  );
                  return [
                    ...session.covers
                      .filter((c) => c.documentId === doc.id && c.page === page)
                      .map((c, i) => (
                        <div
                          // biome-ignore lint/suspicious/noArrayIndexKey: covers never move or reorder within a session.
                          key={`cover-${i}`}
                          className="tag-cover"
                          aria-hidden="true"
                          style={{
                            left: `${c.x * scale}px`,
                            top: `${c.y * scale}px`,
                            width: `${c.width * scale}px`,
                            height: `${c.height * scale}px`,
                          }}
                        />
                      )),
                    ...session.filled
                      .filter((f) => f.documentId === doc.id && f.page === page)
                      .map((f) => <FilledBox key={`filled-${f.id}`} field={f} scale={scale} />),
                    ...onPage.map((f, i) => {
                      const group = groupOf(f, fields).filter((m) => shown.get(m.id));
                      const checked = group.filter((m) => values[m.id] === true).length;
                      const most = f.type === "checkbox" && f.group ? groupBounds(group).most : undefined;
                      const value = values[f.id];
                      return (
                        <FieldBox
                          key={f.id}
                          field={f}
                          value={value}
                          scale={scale}
                          reach={reaches[i] as Reach}
                          error={errors[f.id] ?? numberProblem(f, value, t)}
                          disabled={busy}
                          readOnly={session.identityLocked && (f.type === "name" || f.type === "email")}
                          today={today}
                          dayText={typeof value === "string" ? dayTexts[value] : undefined}
                          groupFull={most !== undefined && checked >= most}
                          groupChosen={checked > 0}
                          attaching={attaching.has(f.id)}
                          register={register}
                          onFocusField={(id) => {
                            current.current = id;
                          }}
                          onChange={change}
                          onOpenSignature={openSignature}
                          onOpenDate={setDateField}
                          onAttach={attach}
                        />
                      );
                    }),
                  ];
                }}
              />
            ))}
          </div>
        </main>

        <section className="action-bar" aria-label={t("actions.label")} hidden={viewing}>
          <div className="action-inner">
            <div className="progress" hidden={approving}>
              <p className="progress-text" data-testid="progress">
                {progressText}
              </p>
              <div
                className="progress-track"
                role="progressbar"
                aria-label={t("progress.label")}
                aria-valuemin={0}
                aria-valuemax={required.length}
                aria-valuenow={done}
              >
                <span style={{ width: `${required.length ? (done / required.length) * 100 : 100}%` }} />
              </div>
              {finishReason ? (
                <p className="finish-reason" id="finish-reason">
                  {finishReason}
                </p>
              ) : null}
            </div>
            {allDone || consent ? (
              <div className="consent-inline">
                <label className="consent-row">
                  <input
                    ref={consentRef}
                    type="checkbox"
                    data-testid="consent"
                    checked={consent}
                    disabled={busy}
                    aria-invalid={consentError ? true : undefined}
                    aria-describedby={consentError ? "consent-error" : undefined}
                    onChange={(e) => dispatch({ type: "consented", consent: e.target.checked })}
                  />
                  <span
                    id="consent-words"
                    className={consentFolded ? "consent-words is-folded" : "consent-words"}
                  >
                    {t(approving ? "approver.consent" : "actions.consent")}
                  </span>
                </label>
                {consentFolded ? (
                  // Only the words' last lines are hidden, and only from sight: the checkbox's name holds them all.
                  <button
                    type="button"
                    className="link-button consent-all"
                    aria-controls="consent-words"
                    aria-expanded={false}
                    onClick={() => setConsentRead(true)}
                  >
                    {t("actions.consentAll")}
                  </button>
                ) : null}
                <FieldError id="consent-error">{consentError}</FieldError>
              </div>
            ) : null}
            <div className="actions">
              <button
                type="button"
                className="button secondary"
                data-testid="decline"
                disabled={busy}
                onClick={() => dispatch({ type: "decline-opened" })}
              >
                {t("actions.decline")}
              </button>
              {approving ? null : (
                <button
                  type="button"
                  className="button secondary"
                  data-testid="next-field"
                  disabled={busy}
                  onClick={nextField}
                >
                  {t("actions.next")}
                </button>
              )}
              <button
                ref={finishRef}
                type="button"
                className="button primary"
                data-testid="finish"
                disabled={busy || !allDone || !consent}
                aria-describedby={finishReason ? "finish-reason" : undefined}
                onClick={finish}
              >
                {form.busy === "submitting" ? (
                  <>
                    <span className="spinner" aria-hidden="true" />{" "}
                    {t(approving ? "approver.approving" : "actions.signing")}
                  </>
                ) : (
                  t(approving ? "approver.approve" : "actions.finish")
                )}
              </button>
            </div>
          </div>
        </section>

        <div className="visually-hidden" role="status" aria-live="polite" data-testid="live-status">
          {status}
        </div>
        <div className="visually-hidden" role="alert" aria-live="assertive" data-testid="live-alert">
          {alert}
        </div>
      </div>

      {dialogField ? (
        <SignatureDialog
          kind={dialogField.type as SignatureKind}
          defaultText={dialogField.type === "signature" ? signer.name : initialsOf(signer.name)}
          current={
            (values[dialogField.id] as SignatureValue | undefined) ??
            adopted[dialogField.type as SignatureKind]
          }
          count={fields.filter((f) => f.type === dialogField.type).length}
          onApply={applySignature}
          onClose={() => dispatch({ type: "signature-closed" })}
        />
      ) : null}
      {dateField ? (
        <DateDialog
          field={dateField}
          day={typeof values[dateField.id] === "string" ? (values[dateField.id] as string) : ""}
          onApply={(day) => {
            setValue(dateField.id, day);
            setDateField(null);
            focusElement(elements.current.get(dateField.id));
          }}
          onClose={() => {
            setDateField(null);
            focusElement(elements.current.get(dateField.id));
          }}
        />
      ) : null}
      {reassigning ? (
        <ReassignDialog onClose={() => setReassigning(false)} onReassigned={onReassigned} onEnded={onEnded} />
      ) : null}
      {form.declineOpen ? (
        <DeclineDialog
          busy={form.busy === "declining"}
          error={form.declineError}
          onClose={() => dispatch({ type: "decline-closed" })}
          onConfirm={confirmDecline}
        />
      ) : null}
    </>
  );
}
