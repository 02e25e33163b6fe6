/**
 * The monitoring in deploy/observability agrees with the code: every PromQL expression parses
 * (Prometheus's own grammar), every metric it reads is one a component exports, every alert says
 * how severe it is, what happened and where the runbook is, the objects are valid
 * prometheus-operator resources, the ServiceMonitor scrapes ports the Services have, and the
 * PodMonitor the sealing pods' port.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRpcMetrics, type Queryable } from "@countersign/kit";
import { PodMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor";
import { PrometheusRule } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";
import { parser } from "@prometheus-io/lezer-promql";
import yaml from "js-yaml";
import { Registry } from "prom-client";
import { admission, DEFAULT_ADMISSION } from "../gateway/src/middleware/admission.js";
import { httpMetrics } from "../gateway/src/middleware/http-metrics.js";
import { sealExpiryGauge } from "../services/requests/src/completion/seal-certificates.js";
import { NotificationMetrics } from "../services/requests/src/notices/notifications.js";
import { timestampMetrics } from "../services/requests/src/pdf/pades/timestamp-client.js";
import { DeliveryMetrics } from "../services/webhooks/src/delivery/metrics.js";
import { REPO } from "./support/deployments.js";

const dir = join(REPO, "deploy/observability");

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels: { severity: string };
  annotations: { summary: string; description: string; runbook_url: string };
}

interface Panel {
  id: number;
  type: string;
  title: string;
  targets?: { expr: string; datasource: { uid: string } }[];
}

const rules = yaml.load(readFileSync(join(dir, "prometheus-rules.yaml"), "utf8")) as {
  spec: { groups: { rules: Rule[] }[] };
};
const alerts = rules.spec.groups.flatMap((group) => group.rules);
const dashboard = JSON.parse(readFileSync(join(dir, "grafana-dashboard.json"), "utf8")) as {
  panels: Panel[];
};
const panels = dashboard.panels.filter((panel) => panel.type !== "row");
const expressions = [
  ...alerts.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr })),
  ...panels.flatMap((panel) =>
    (panel.targets ?? []).map((t) => ({ where: `panel "${panel.title}"`, expr: asGrafanaSends(t.expr) })),
  ),
];

/** A panel's query as Grafana sends it to Prometheus: its variables filled in. */
function asGrafanaSends(expr: string): string {
  return expr.replaceAll("$__rate_interval", "1m").replaceAll("$namespace", "countersign");
}

/** Every metric name the components register, read from their registries. */
async function exportedMetrics(): Promise<Set<string>> {
  const services = createRpcMetrics();
  const gateway = new Registry();
  httpMetrics(gateway);
  admission(DEFAULT_ADMISSION, gateway);
  const names = [
    ...(await services.registry.getMetricsAsJSON()).map((m) => m.name),
    ...(await gateway.getMetricsAsJSON()).map((m) => m.name),
    ...new DeliveryMetrics(async () => 0).all().map((m) => (m as unknown as { name: string }).name),
    (new NotificationMetrics().deliveries as unknown as { name: string }).name,
    ...Object.values(timestampMetrics).map((m) => (m as unknown as { name: string }).name),
    // Named without a scrape: the database it reads is never asked.
    (sealExpiryGauge({} as Queryable) as unknown as { name: string }).name,
  ];
  // `up` is Prometheus's own, for every target it scrapes.
  return new Set([...names, "up"]);
}

/** The syntax errors of a PromQL expression and the metrics it selects. */
function readPromQl(expr: string): { errors: number; metrics: string[] } {
  const tree = parser.parse(expr);
  let errors = 0;
  const metrics: string[] = [];
  tree.iterate({
    enter: (node) => {
      if (node.type.isError) errors++;
      if (node.name === "Identifier" && node.node.parent?.name === "VectorSelector") {
        metrics.push(expr.slice(node.from, node.to));
      }
    },
  });
  return { errors, metrics };
}

test("every expression parses as PromQL and reads only metrics the components export", async () => {
  const exported = await exportedMetrics();
  const problems: string[] = [];
  for (const { where, expr } of expressions) {
    const { errors, metrics } = readPromQl(expr);
    if (errors > 0) problems.push(`${where}: does not parse: ${expr}`);
    if (metrics.length === 0) problems.push(`${where}: selects no metric`);
    for (const metric of metrics) {
      const family = metric.replace(/_(bucket|sum|count)$/, "");
      if (!exported.has(metric) && !exported.has(family))
        problems.push(`${where}: ${metric} is not exported`);
    }
  }
  expect(problems).toEqual([]);
  expect(expressions.length).toBeGreaterThan(20);
});

test("a misspelt metric or broken expression would be caught", async () => {
  const exported = await exportedMetrics();
  expect(readPromQl("sum(rate(rpc_server_handled_total[5m])").errors).toBeGreaterThan(0);
  expect(exported.has(readPromQl("rate(rpc_server_handeld_total[5m])").metrics[0] as string)).toBe(false);
});

test("every alert has a severity, a summary, a description, a wait and the runbook", () => {
  const runbook = readFileSync(join(REPO, "docs/operations.md"), "utf8");
  expect(runbook).toMatch(/^## Alerts$/m);
  for (const rule of alerts) {
    expect([rule.alert, ["critical", "warning", "info"].includes(rule.labels.severity)]).toEqual([
      rule.alert,
      true,
    ]);
    expect(rule.annotations.summary.length).toBeGreaterThan(10);
    expect(rule.annotations.description.length).toBeGreaterThan(20);
    expect(rule.annotations.runbook_url).toMatch(/docs\/operations\.md#alerts$/);
    expect(rule.for).toMatch(/^\d+[smh]$/);
    // The runbook names each alert, so that the link leads somewhere useful.
    expect([rule.alert, runbook.includes(rule.alert)]).toEqual([rule.alert, true]);
  }
  expect(new Set(alerts.map((rule) => rule.alert)).size).toBe(alerts.length);
});

test("the dashboard's panels have their own ids and ask the chosen data source", () => {
  const ids = dashboard.panels.map((panel) => panel.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const panel of panels) {
    expect([panel.title, (panel.targets ?? []).length > 0]).toEqual([panel.title, true]);
    // Grafana's own variable syntax, not a template string: the dashboard asks for a data source on import.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana variable
    for (const target of panel.targets ?? []) expect(target.datasource.uid).toBe("${datasource}");
  }
});

test("the rules and the ServiceMonitor are valid, and it scrapes ports the Services have", () => {
  const rendered = yaml.loadAll(execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8" })) as {
    kind: string;
  }[];
  new PrometheusRule(rendered.find((o) => o.kind === "PrometheusRule") as never).validate();
  const monitor = rendered.find((o) => o.kind === "ServiceMonitor") as unknown as {
    spec: { endpoints: { port: string; path: string }[] };
  };
  new ServiceMonitor(monitor as never).validate();
  const services = (
    yaml.loadAll(execFileSync("kubectl", ["kustomize", join(REPO, "deploy/base")], { encoding: "utf8" })) as {
      kind: string;
      metadata: { name: string };
      spec: { ports: { name: string }[] };
    }[]
  ).filter((o) => o.kind === "Service");
  const scraped = new Set(monitor.spec.endpoints.map((endpoint) => endpoint.port));
  for (const service of services) {
    const ports = service.spec.ports.map((port) => port.name).filter((name) => scraped.has(name));
    expect([service.metadata.name, ports.length]).toEqual([service.metadata.name, 1]);
  }
});

test("the PodMonitor is valid and scrapes the sealing pods, which no Service fronts, on a port they have", () => {
  const rendered = yaml.loadAll(execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8" })) as {
    kind: string;
  }[];
  const monitor = rendered.find((o) => o.kind === "PodMonitor") as unknown as {
    spec: { selector: { matchLabels: Record<string, string> }; podMetricsEndpoints: { port: string }[] };
  };
  new PodMonitor(monitor as never).validate();
  const workloads = (
    yaml.loadAll(execFileSync("kubectl", ["kustomize", join(REPO, "deploy/base")], { encoding: "utf8" })) as {
      kind: string;
      metadata: { name: string };
      spec: {
        template: {
          metadata: { labels: Record<string, string> };
          spec: { containers: { ports?: { name: string }[] }[] };
        };
      };
    }[]
  ).filter((o) => o.kind === "Deployment");
  const selected = workloads.filter((w) =>
    Object.entries(monitor.spec.selector.matchLabels).every(
      ([label, value]) => w.spec.template.metadata.labels[label] === value,
    ),
  );
  expect(selected.map((w) => w.metadata.name)).toEqual(["requests-sealer"]);
  const ports = selected[0]?.spec.template.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name));
  for (const endpoint of monitor.spec.podMetricsEndpoints) expect(ports).toContain(endpoint.port);
});

/** Prometheus's own checker, where it is installed (CI unpacks it from Debian's prometheus package). */
const promtool = (() => {
  try {
    execFileSync("promtool", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
})();

(promtool ? test : test.skip)(
  "promtool accepts the rules, and the alerts items 1–4 added fire on their series and stay quiet otherwise",
  () => {
    const work = mkdtempSync(join(tmpdir(), "countersign-promtool-"));
    try {
      writeFileSync(join(work, "rules.yaml"), yaml.dump({ groups: rules.spec.groups }));
      execFileSync("promtool", ["check", "rules", join(work, "rules.yaml")], { encoding: "utf8" });
      const annotations = (name: string) => {
        const rule = alerts.find((a) => a.alert === name) as Rule;
        return { description: rule.annotations.description, runbook_url: rule.annotations.runbook_url };
      };
      const day = 86_400;
      const unitTests = {
        rule_files: ["rules.yaml"],
        evaluation_interval: "1m",
        tests: [
          {
            interval: "1m",
            input_series: [
              // A workspace's own seal 10 days (and 5 minutes) from its expiry, the deployment's 400 days.
              {
                series:
                  'seal_certificate_expiry_timestamp_seconds{namespace="cs", sha256_fingerprint="AA", workspace_id="w1"}',
                values: `${10 * day + 300}x60`,
              },
              {
                series: 'seal_certificate_expiry_timestamp_seconds{namespace="cs", sha256_fingerprint="BB"}',
                values: `${400 * day}x60`,
              },
              // The authority fails in cs and stamps nothing; in ok it fails now and then but stamps too.
              { series: 'timestamp_requests_total{namespace="cs", outcome="failed"}', values: "0+5x60" },
              { series: 'timestamp_requests_total{namespace="cs", outcome="stamped"}', values: "0x60" },
              { series: 'timestamp_requests_total{namespace="ok", outcome="failed"}', values: "0+1x60" },
              { series: 'timestamp_requests_total{namespace="ok", outcome="stamped"}', values: "0+10x60" },
              {
                series:
                  'background_job_attempts_total{namespace="cs", queue="auth e-mail", outcome="retried"}',
                values: "0+1x60",
              },
              {
                series: 'background_job_attempts_total{namespace="cs", queue="auth e-mail", outcome="done"}',
                values: "0x60",
              },
            ],
            alert_rule_test: [
              {
                eval_time: "5m",
                alertname: "CountersignSealCertificateExpiresSoon",
                exp_alerts: [
                  {
                    exp_labels: { severity: "warning", namespace: "cs", workspace_id: "w1" },
                    exp_annotations: {
                      summary: "A seal certificate expires in 10d 0h 0m 0s (workspace w1's own)",
                      ...annotations("CountersignSealCertificateExpiresSoon"),
                    },
                  },
                ],
              },
              { eval_time: "5m", alertname: "CountersignSealCertificateExpired", exp_alerts: [] },
              {
                eval_time: "40m",
                alertname: "CountersignTimestampAuthorityFailing",
                exp_alerts: [
                  {
                    exp_labels: { severity: "critical", namespace: "cs" },
                    exp_annotations: {
                      summary:
                        "The time-stamping authority has stamped nothing for 15 minutes, and requests to it fail",
                      ...annotations("CountersignTimestampAuthorityFailing"),
                    },
                  },
                ],
              },
              {
                eval_time: "40m",
                alertname: "CountersignAccountEmailFailing",
                exp_alerts: [
                  {
                    exp_labels: { severity: "warning", namespace: "cs", queue: "auth e-mail" },
                    exp_annotations: {
                      summary: "Auth's e-mails have gone out to nobody for 15 minutes, and tries fail",
                      ...annotations("CountersignAccountEmailFailing"),
                    },
                  },
                ],
              },
            ],
          },
        ],
      };
      writeFileSync(join(work, "tests.yaml"), yaml.dump(unitTests, { lineWidth: -1 }));
      const run = spawnSync("promtool", ["test", "rules", "tests.yaml"], { cwd: work, encoding: "utf8" });
      // promtool's own report of what did not fire as expected, when anything did not.
      expect(run.status === 0 ? "" : `${run.stdout}${run.stderr}`).toBe("");
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  },
);
