/** What a test event's delivery came to, in words: the technical detail is shown beneath it. */
import type { WebhookAttempt } from "../types";

export function testFireOutcome(attempt: WebhookAttempt): { ok: boolean; text: string } {
  const took = `in ${Math.round(attempt.durationMs)} ms`;
  if (attempt.succeeded) {
    return {
      ok: true,
      text: `Your endpoint took the test event: it answered ${attempt.statusCode} ${took}.`,
    };
  }
  if (attempt.statusCode !== null) {
    const whose =
      attempt.statusCode >= 500
        ? "it failed while handling it"
        : attempt.statusCode === 401 || attempt.statusCode === 403
          ? "it refused it; check that it verifies signatures with this endpoint's secret"
          : "it did not accept it";
    return {
      ok: false,
      text: `Your endpoint answered ${attempt.statusCode} ${took}: ${whose}. Only a 2xx answer counts as delivered.`,
    };
  }
  return {
    ok: false,
    text: "Countersign could not reach your endpoint: no answer came back. Check the URL, that the server is up and that it accepts HTTPS from this service.",
  };
}
