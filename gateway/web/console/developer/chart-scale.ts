/** The steps of a chart's scale: round numbers a reader takes in at a glance. */

/** The smallest of 1, 2 or 5 times a power of ten that is at least `value` (and at least 1). */
export function roundStep(value: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(1, value)));
  for (const factor of [1, 2, 5]) if (factor * power >= value) return factor * power;
  return 10 * power;
}
