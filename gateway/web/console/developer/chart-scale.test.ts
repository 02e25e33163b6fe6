/** The API Usage chart's scale: four round steps that hold the busiest day. */
import { roundStep } from "./chart-scale";

test("a step is 1, 2 or 5 times a power of ten, the smallest that is at least the value", () => {
  expect([0, 0.25, 1, 1.5, 2, 3, 7, 12.5, 49, 50, 51, 2_400].map(roundStep)).toEqual([
    1, 1, 1, 2, 2, 5, 10, 20, 50, 50, 100, 5_000,
  ]);
});
