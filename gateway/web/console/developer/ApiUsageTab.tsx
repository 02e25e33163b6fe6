import { useState } from "react";
import { ok } from "../../shared/api-client";
import { api } from "../api";
import { CardHead } from "../CardHead";
import { DataTable } from "../DataTable";
import { keys } from "../queries";
import type { ApiUsage, UsageFigures } from "../types";
import { Empty, SelectField, Show, useLoaded } from "../ui";
import { useWorkspace } from "../workspace";
import { BreakablePath } from "./BreakablePath";
import { roundStep } from "./chart-scale";

const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.001 ? 2 : 1)}%`;
const ms = (value: number) => `${Math.round(value)} ms`;

const RANGES = [
  { value: "7", label: "Last 7 days" },
  { value: "30", label: "Last 30 days" },
  { value: "90", label: "Last 90 days" },
];

/** The first and last day (UTC) of the `days` days that end today. */
function range(days: number): { from: string; to: string } {
  const today = new Date();
  const from = new Date(today.getTime() - (days - 1) * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: today.toISOString().slice(0, 10) };
}

export function ApiUsageTab() {
  const workspace = useWorkspace();
  const [days, setDays] = useState("30");
  const [loaded, reload] = useLoaded(keys.apiUsage(workspace.id, days), () =>
    ok(
      api.GET("/workspaces/{workspaceId}/api-usage", {
        params: { path: { workspaceId: workspace.id }, query: range(Number(days)) },
      }),
    ),
  );
  return (
    <div className="stack">
      <div className="filters">
        <SelectField label="Period" small value={days} options={RANGES} onChange={setDays} />
      </div>
      <Show loaded={loaded} what="API usage" onRetry={reload}>
        {(usage) => (
          <div className="stack">
            <div className="figures" data-testid="usage-totals">
              <Figure label="Calls" value={usage.total.calls.toLocaleString()} />
              <Figure label="Error rate" value={percent(usage.total.errorRate)} />
              <Figure label="p50 latency" value={ms(usage.total.p50Ms)} />
              <Figure label="p95 latency" value={ms(usage.total.p95Ms)} />
            </div>
            <div className="card">
              <CardHead
                title="Calls per day"
                description={
                  <>
                    {usage.from} to {usage.to} (UTC). Errors are the part of each bar in red.
                  </>
                }
                action={{ label: "Refresh", onClick: reload, quiet: true }}
              />
              <DailyChart days={usage.days} from={usage.from} to={usage.to} />
            </div>
            <div className="card">
              <h2>By route</h2>
              {usage.routes.length === 0 ? (
                <Empty title="No calls in these days">
                  Calls made with this workspace's API keys are counted here.
                </Empty>
              ) : (
                <DataTable
                  label="Usage by route"
                  testId="usage-routes"
                  columns={[
                    "Route",
                    { label: "Calls", numeric: true },
                    { label: "Error rate", numeric: true },
                    { label: "p50", numeric: true },
                    { label: "p95", numeric: true },
                  ]}
                >
                  {usage.routes.map((r) => (
                    <tr key={`${r.method} ${r.route}`}>
                      <td className="path" data-label="Route">
                        <code>
                          {r.method} <BreakablePath path={r.route} />
                        </code>
                      </td>
                      <Numbers figures={r} />
                    </tr>
                  ))}
                </DataTable>
              )}
            </div>
            {usage.callers.length > 0 ? <ByCaller callers={usage.callers} /> : null}
          </div>
        )}
      </Show>
    </div>
  );
}

const KIND_WORDS = { api_key: "API key", integration: "Integration", deleted: "Deleted" } as const;

/** Each API key's and integration's calls, under the name it has now. */
function ByCaller({ callers }: { callers: ApiUsage["callers"] }) {
  return (
    <div className="card">
      <h2>By key or integration</h2>
      <DataTable
        label="Usage by key or integration"
        testId="usage-callers"
        columns={["Name", "Kind", { label: "Calls", numeric: true }, { label: "Errors", numeric: true }]}
      >
        {callers.map((c) => (
          <tr key={c.id}>
            <td data-label="Name">{c.name || <span className="muted">(deleted)</span>}</td>
            <td data-label="Kind">{KIND_WORDS[c.kind]}</td>
            <td className="num" data-label="Calls">
              {c.calls.toLocaleString()}
            </td>
            <td className="num" data-label="Errors">
              {c.errors.toLocaleString()}
            </td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="figure">
      <p className="figure-label">{label}</p>
      <p className="figure-value">{value}</p>
    </div>
  );
}

function Numbers({ figures }: { figures: UsageFigures }) {
  return (
    <>
      <td className="num" data-label="Calls">
        {figures.calls.toLocaleString()}
      </td>
      <td className="num" data-label="Error rate">
        {percent(figures.errorRate)}
      </td>
      <td className="num" data-label="p50">
        {ms(figures.p50Ms)}
      </td>
      <td className="num" data-label="p95">
        {ms(figures.p95Ms)}
      </td>
    </>
  );
}

/** One bar a day over the whole range, days without calls included, so gaps show as gaps. */
function DailyChart({ days, from, to }: { days: ApiUsage["days"]; from: string; to: string }) {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const range: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    range.push(new Date(t).toISOString().slice(0, 10));
  }
  const max = Math.max(1, ...days.map((d) => d.calls));
  // The scale's top: four round steps, one per grid line, that hold the busiest day.
  const step = roundStep(max / 4);
  const top = step * 4;
  const width = 100 / Math.max(1, range.length);
  return (
    <figure className="chart" data-testid="usage-chart">
      <div className="chart-body">
        <div className="chart-y" aria-hidden="true">
          <span className="chart-y-title">Calls per day</span>
          <ol className="chart-ticks" data-testid="usage-chart-ticks">
            {[4, 3, 2, 1, 0].map((n) => (
              <li key={n}>{(n * step).toLocaleString()}</li>
            ))}
          </ol>
        </div>
        <svg
          viewBox="0 0 100 40"
          preserveAspectRatio="none"
          role="img"
          aria-label={`Calls per day, at most ${max} in a day`}
        >
          {range.map((day, i) => {
            const d = byDay.get(day);
            if (!d) return null;
            const h = (d.calls / top) * 40;
            const e = (d.errors / top) * 40;
            return (
              <g key={day}>
                <title>{`${day}: ${d.calls} calls, ${d.errors} errors`}</title>
                <rect
                  x={i * width + width * 0.15}
                  y={40 - h}
                  width={width * 0.7}
                  height={h - e}
                  className="bar"
                />
                {e > 0 ? (
                  <rect
                    x={i * width + width * 0.15}
                    y={40 - e}
                    width={width * 0.7}
                    height={e}
                    className="bar-errors"
                  />
                ) : null}
              </g>
            );
          })}
        </svg>
        <div className="chart-axis">
          <span>{range[0]}</span>
          <span>{range[range.length - 1]}</span>
        </div>
      </div>
      <table className="visually-hidden">
        <caption>Calls per day</caption>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              <td>{d.calls} calls</td>
              <td>{d.errors} errors</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
