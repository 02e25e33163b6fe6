/** A test event's outcome in words, for each way a delivery ends. */
import type { WebhookAttempt } from "../types";
import { testFireOutcome } from "./test-fire-outcome";

const attempt = (over: Partial<WebhookAttempt>): WebhookAttempt =>
  ({ statusCode: 200, durationMs: 12.4, succeeded: true, error: null, ...over }) as WebhookAttempt;

test("a 2xx is delivered; any other answer, or none, says what it means", () => {
  expect(testFireOutcome(attempt({ statusCode: 204 }))).toEqual({
    ok: true,
    text: "Your endpoint took the test event: it answered 204 in 12 ms.",
  });
  expect(testFireOutcome(attempt({ statusCode: 500, succeeded: false })).text).toMatch(
    /^Your endpoint answered 500 in 12 ms: it failed while handling it\./,
  );
  expect(testFireOutcome(attempt({ statusCode: 401, succeeded: false })).text).toContain(
    "verifies signatures with this endpoint's secret",
  );
  expect(testFireOutcome(attempt({ statusCode: 404, succeeded: false })).text).toContain("did not accept it");
  expect(
    testFireOutcome(attempt({ statusCode: null, succeeded: false, error: "connect ECONNREFUSED" })),
  ).toMatchObject({ ok: false, text: expect.stringMatching(/^Countersign could not reach your endpoint/) });
});
