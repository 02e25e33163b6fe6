/** Small parts every console page uses: reads with their states, copy buttons, confirmations. */
import { type QueryKey, useQuery } from "@tanstack/react-query";
import {
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
  type TextareaHTMLAttributes,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from "react";
import { Modal } from "../shared/Modal";
import { type ApiError, asApiError } from "./api";
import { formatDateTime, formatDay } from "./dates";

export type Loaded<T> =
  | { state: "loading" }
  | { state: "failed"; error: ApiError }
  | { state: "ready"; value: T; reloading: boolean };

interface LoadOptions<T> {
  /** How often to read again while the page shows it, by what was read last. */
  refetchInterval?: number | false | ((value: T | undefined) => number | false);
  /**
   * The value fills a form, which keeps what it started from: it is read afresh each time the
   * page opens instead of starting from a cached value that a later read could not correct.
   */
  seedsForm?: boolean;
}

/**
 * A read through the console's cache, as a page shows it: "loading" while there is nothing yet
 * for this key (a new key's old value belongs to something else), "failed" once asking again has
 * not helped, and otherwise the value, still shown while it is read again. The second element
 * asks again (the "Try again" of a failure).
 */
export function useLoaded<T>(
  queryKey: QueryKey,
  load: () => Promise<T>,
  options: LoadOptions<T> = {},
): [Loaded<T>, () => void] {
  const { refetchInterval, seedsForm } = options;
  const query = useQuery<T, ApiError>({
    queryKey,
    queryFn: load,
    ...(seedsForm ? { gcTime: 0 } : {}),
    refetchInterval:
      typeof refetchInterval === "function" ? (q) => refetchInterval(q.state.data) : refetchInterval,
  });
  const { refetch } = query;
  const again = useCallback(() => void refetch(), [refetch]);
  if (query.status === "error" && !query.isFetching) return [{ state: "failed", error: query.error }, again];
  if (query.data === undefined) return [{ state: "loading" }, again];
  return [{ state: "ready", value: query.data, reloading: query.isFetching }, again];
}

export interface Action {
  /** What is under way (the name given to run), for the button that shows a spinner. */
  busy?: string;
  error?: ApiError;
  /** Runs work unless something is under way; a failure lands in `error`. Resolves true on success. */
  run: (what: string, work: () => Promise<unknown>) => Promise<boolean>;
  clearError: () => void;
}

/** The busy and failed states of the things a user does on a page. */
export function useAction(): Action {
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const running = useRef(false);
  const run = useCallback(async (what: string, work: () => Promise<unknown>) => {
    if (running.current) return false;
    running.current = true;
    setBusy(what);
    setError(undefined);
    try {
      await work();
      return true;
    } catch (err) {
      setError(asApiError(err));
      return false;
    } finally {
      running.current = false;
      setBusy(undefined);
    }
  }, []);
  return { busy, error, run, clearError: useCallback(() => setError(undefined), []) };
}

/** A button that shows a spinner while its action runs and cannot be pressed twice. */
export function BusyButton({
  busy,
  children,
  className = "button primary",
  type = "button",
  disabled,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { busy: boolean }) {
  return (
    <button
      type={type}
      className={className}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      {...rest}
    >
      {busy ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** What a labelled field adds to its control's own attributes. */
interface FieldProps {
  label: ReactNode;
  error?: string;
  /** Says "(optional)" after the label. */
  optional?: boolean;
}

/** The attributes that tie a control to its label and its error message. */
interface ControlTies {
  id: string;
  className: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/**
 * A field's label, its control and its error message, tied together for screen readers: `control`
 * draws the control from the ties and the attributes the field was given for it.
 */
function LabelledField<Rest extends object>({
  field: { label, error, optional, className = "input", ...rest },
  control,
}: {
  field: FieldProps & { className?: string } & Rest;
  control: (ties: ControlTies, rest: Omit<Rest, keyof FieldProps | "className">) => ReactNode;
}) {
  const id = useId();
  const errorId = useId();
  return (
    <>
      <label className="stacked-label" htmlFor={id}>
        {label}
        {optional ? <span className="required-word"> (optional)</span> : null}
      </label>
      {control(
        {
          id,
          className,
          "aria-invalid": error ? true : undefined,
          "aria-describedby": error ? errorId : undefined,
        },
        rest,
      )}
      <FieldError id={errorId} message={error} />
    </>
  );
}

/** A labelled input with its error message tied to it for screen readers. */
export function TextField(field: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return <LabelledField field={field} control={(ties, input) => <input {...ties} {...input} />} />;
}

/** A labelled text area with its error message tied to it for screen readers. */
export function TextAreaField(field: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <LabelledField field={field} control={(ties, area) => <textarea {...ties} {...area} />} />;
}

/** A select of values of type V; with `any`, V holds "" too, the value of that first option. */
interface SelectFieldProps<V extends string> {
  label: string;
  value: V;
  options: readonly (V | { value: V; label: string })[];
  onChange: (value: V) => void;
  /** The first option, for "no filter" ("All"). */
  any?: string;
  small?: boolean;
}

/** A labelled select; used for filters and choices alike. */
export function SelectField<V extends string>({
  label,
  value,
  options,
  onChange,
  any,
  small,
}: SelectFieldProps<V>) {
  const id = useId();
  return (
    <div>
      <label className={`stacked-label${small ? " small" : ""}`} htmlFor={id}>
        {label}
      </label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value as V)}>
        {any !== undefined ? <option value="">{any}</option> : null}
        {options.map((o) => {
          const option = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          );
        })}
      </select>
    </div>
  );
}

interface ShowProps<T> {
  loaded: Loaded<T>;
  /** What is loading, for the spinner's label ("API keys"). */
  what: string;
  onRetry?: () => void;
  children: (value: T) => ReactNode;
}

/** The loading and error states of a Loaded value; children render it when ready. */
export function Show<T>({ loaded, what, onRetry, children }: ShowProps<T>) {
  if (loaded.state === "loading") {
    return (
      <div className="state" role="status">
        <span className="spinner" aria-hidden="true" /> Loading {what}…
      </div>
    );
  }
  if (loaded.state === "failed") return <ErrorNote error={loaded.error} onRetry={onRetry} />;
  return <>{children(loaded.value)}</>;
}

export function ErrorNote({ error, onRetry }: { error: ApiError; onRetry?: () => void }) {
  return (
    <div className="note error" role="alert">
      <p>
        <strong>{error.status === 403 ? "Not allowed. " : "Something went wrong. "}</strong>
        {error.detail}
      </p>
      {error.requestId ? (
        <p className="muted small">
          Request ID: <code>{error.requestId}</code>
        </p>
      ) : null}
      {onRetry ? (
        <button type="button" className="button secondary" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children}
    </div>
  );
}

/** Copies `text`; says so in words, for screen readers too. */
export function CopyButton({
  text,
  label = "Copy",
  className = "button secondary small",
  onCopied,
}: {
  text: string;
  label?: string;
  className?: string;
  onCopied?: () => void;
}) {
  const [copied, setCopied] = useState<"no" | "yes" | "failed">("no");
  useEffect(() => {
    if (copied === "no") return;
    const timer = setTimeout(() => setCopied("no"), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
      onCopied?.();
    } catch {
      setCopied("failed");
    }
  };
  return (
    <button type="button" className={className} onClick={copy}>
      <span aria-live="polite">
        {copied === "yes" ? "Copied" : copied === "failed" ? "Copy failed: select and copy" : label}
      </span>
    </button>
  );
}

interface ConfirmProps {
  title: string;
  description: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** Asks before something that cannot be undone; shows the failure in place when it fails. */
export function Confirm({ title, description, confirmLabel, danger, onConfirm, onClose }: ConfirmProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError>();
  const confirm = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm();
      onClose();
    } catch (err) {
      setError(err as ApiError);
      setBusy(false);
    }
  };
  return (
    <Modal title={title} description={description} onClose={onClose} testId="confirm-dialog" busy={busy}>
      {error ? <ErrorNote error={error} /> : null}
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onClose} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className={`button ${danger ? "danger" : "primary"}`}
          onClick={confirm}
          disabled={busy}
        >
          {busy ? <span className="spinner" aria-hidden="true" /> : null}
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}

export function When({ at, dateOnly: onlyDate }: { at: string | null | undefined; dateOnly?: boolean }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  return (
    <time dateTime={at} title={date.toISOString()}>
      {(onlyDate ? formatDay : formatDateTime)(date)}
    </time>
  );
}

/** A checkbox with its words as its label, as the forms' yes-or-no choices are. */
export function CheckField({
  checked,
  onChange,
  className = "check",
  children,
}: {
  checked: boolean;
  onChange: (next: boolean) => void;
  className?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <label className={className} htmlFor={id}>
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />{" "}
      {children}
    </label>
  );
}

/** A field's message under its input, tied to it by id for screen readers. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  return message ? (
    <p id={id} className="field-error">
      {message}
    </p>
  ) : null;
}

export function Pager({
  page,
  onPage,
}: {
  page: { pageIndex: number; pageSize: number; totalCount: number };
  onPage: (index: number) => void;
}) {
  const pages = Math.max(1, Math.ceil(page.totalCount / page.pageSize));
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages">
      <button
        type="button"
        className="button secondary small"
        disabled={page.pageIndex === 0}
        onClick={() => onPage(page.pageIndex - 1)}
      >
        Previous
      </button>
      <span>
        Page {page.pageIndex + 1} of {pages}
      </span>
      <button
        type="button"
        className="button secondary small"
        disabled={page.pageIndex + 1 >= pages}
        onClick={() => onPage(page.pageIndex + 1)}
      >
        Next
      </button>
    </nav>
  );
}
