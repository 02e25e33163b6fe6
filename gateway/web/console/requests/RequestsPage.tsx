import { Fragment, useEffect, useState } from "react";
import { Link } from "wouter";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { PagedRows } from "../PagedRows";
import { keys } from "../queries";
import { REQUEST_STATUSES, type RequestStatus } from "../types";
import { Empty, SelectField, TextField, useLoaded, When } from "../ui";
import { useWorkspace } from "../workspace";
import { StatusBadge, statusLabel } from "./status";

const SORTS = [
  { value: "newest", label: "Newest first" },
  { value: "oldest", label: "Oldest first" },
  { value: "changed", label: "Recently changed" },
  { value: "title", label: "Title (A–Z)" },
] as const;

type Sort = (typeof SORTS)[number]["value"];

/** The one request a page that counts those awaiting approval asks for. */
const AWAITING = { status: "awaiting_approval", pageSize: 1 } as const;

/** A day picked in a date input (this browser's time zone), as the instant it begins. */
const startOf = (day: string) => new Date(`${day}T00:00:00`).toISOString();
const dayAfter = (day: string) => new Date(new Date(`${day}T00:00:00`).getTime() + 86_400_000).toISOString();

export function RequestsPage() {
  const workspace = useWorkspace();
  const [status, setStatus] = useState<RequestStatus | "">("");
  const [typed, setTyped] = useState("");
  const [search, setSearch] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [sort, setSort] = useState<Sort>("newest");
  const [pageIndex, setPageIndex] = useState(0);
  // A search asks once typing pauses, not at every key.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(typed.trim());
      setPageIndex(0);
    }, 300);
    return () => clearTimeout(timer);
  }, [typed]);
  const query = {
    pageIndex,
    pageSize: 20,
    sort,
    ...(status ? { status } : {}),
    ...(search ? { q: search } : {}),
    ...(from ? { createdFrom: startOf(from) } : {}),
    ...(to ? { createdTo: dayAfter(to) } : {}),
  };
  const filtered = Boolean(status || search || from || to);
  const refilter =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setPageIndex(0);
    };
  const [loaded, reload] = useLoaded(keys.requestList(workspace.id, query), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/signature-requests", {
        params: { path: { workspaceId: workspace.id }, query },
      }),
    ),
  );
  // What agents proposed waits for someone to notice it: said above the list, whatever it shows,
  // counted when the page opens and again whenever a request changes.
  const [awaiting] = useLoaded(keys.requestList(workspace.id, AWAITING), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/signature-requests", {
        params: { path: { workspaceId: workspace.id }, query: AWAITING },
      }),
    ),
  );
  return (
    <section aria-labelledby="requests-title">
      <div className="page-head">
        <h1 id="requests-title">Signature requests</h1>
        <div className="button-row">
          <Link href="/requests/send" className="button primary">
            Send documents
          </Link>
          <Link href="/requests/new" className="button secondary">
            From a template
          </Link>
          <Link href="/requests/bulk" className="button secondary">
            Bulk send
          </Link>
        </div>
      </div>
      {awaiting.state === "ready" && awaiting.value.totalCount > 0 && status !== "awaiting_approval" ? (
        <p className="note warning" data-testid="awaiting-approval">
          {awaiting.value.totalCount === 1
            ? "One request an agent proposed awaits approval."
            : `${awaiting.value.totalCount} requests agents proposed await approval.`}{" "}
          <button
            type="button"
            className="link-button"
            onClick={() => refilter(setStatus)("awaiting_approval")}
          >
            Show {awaiting.value.totalCount === 1 ? "it" : "them"}
          </button>
        </p>
      ) : null}
      <search className="filters" aria-label="Find requests">
        <div className="grow">
          <TextField
            label="Search"
            type="search"
            value={typed}
            placeholder="Title, recipient's name or e-mail"
            maxLength={200}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <SelectField
          label="Status"
          value={status}
          any="All"
          options={REQUEST_STATUSES.map((s) => ({ value: s, label: statusLabel(s) }))}
          onChange={refilter(setStatus)}
        />
        <CreatedBetween from={from} to={to} onFrom={refilter(setFrom)} onTo={refilter(setTo)} />
        <SelectField label="Sort" value={sort} options={SORTS} onChange={refilter(setSort)} />
      </search>
      <div className="card flush">
        <PagedRows
          loaded={loaded}
          what="signature requests"
          onRetry={reload}
          onPage={setPageIndex}
          testId="requests"
          empty={
            filtered ? (
              <Empty title="No request matches">Change the search or the filters to see more.</Empty>
            ) : (
              <Empty title="No signature requests yet">
                Requests made through the API, from a template or by sending documents show here.
              </Empty>
            )
          }
        >
          {(r) => {
            const signers = r.recipients.filter((x) => x.kind === "signer");
            const signed = signers.filter((x) => x.status === "signed").length;
            return (
              <li key={r.id} className="row">
                <div className="row-main">
                  <Link href={`/requests/${r.id}`} className="row-title link">
                    <bdi>{r.title}</bdi>
                  </Link>
                  <p className="muted small" data-testid="request-signers">
                    {/* Each name set apart, so an Arabic one does not carry the count away with it. */}
                    {signers.length === 0
                      ? "No signers yet"
                      : signers.map((x, i) => (
                          <Fragment key={x.id}>
                            {i > 0 ? ", " : null}
                            <bdi>{x.name}</bdi>
                          </Fragment>
                        ))}{" "}
                    · {signed} of {signers.length} signed · created <When at={r.createdAt} />
                  </p>
                </div>
                {r.test ? <span className="badge test">Test</span> : null}
                {r.completionFailure && r.status === "in_progress" ? (
                  <span className="badge danger">Sealing failed</span>
                ) : (
                  <StatusBadge status={r.status} />
                )}
              </li>
            );
          }}
        </PagedRows>
      </div>
    </section>
  );
}

/** The days a request was made between, each end bounding the other. */
function CreatedBetween(props: {
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
}) {
  const ends = [
    { label: "Created from", value: props.from, set: props.onFrom, max: props.to || undefined },
    { label: "Created to", value: props.to, set: props.onTo, min: props.from || undefined },
  ];
  return ends.map(({ label, value, set, ...bounds }) => (
    <div key={label}>
      <TextField label={label} type="date" value={value} {...bounds} onChange={(e) => set(e.target.value)} />
    </div>
  ));
}
