/** Touch reaches lie only in free space: never over another box or another box's reach. */
import fc from "fast-check";
import { type Box, type Reach, TOUCH_TARGET, touchReaches } from "./touch-reach";

const area = (box: Box, reach: Reach) => ({
  left: box.x - reach.left,
  right: box.x + box.width + reach.right,
  top: box.y - reach.top,
  bottom: box.y + box.height + reach.bottom,
});
const none = { left: 0, right: 0, top: 0, bottom: 0 };
type Area = ReturnType<typeof area>;
const meet = (a: Area, b: Area) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test("a box alone reaches to 44 × 44; beside a neighbour it reaches half the gap toward it", () => {
  const [alone] = touchReaches([{ x: 0, y: 0, width: 10, height: 30 }], TOUCH_TARGET);
  expect(alone).toEqual({ left: 17, right: 17, top: 7, bottom: 7 });
  // Two radio buttons of 10 × 10, 5 apart, as a dense form on a phone draws them.
  const [first, second] = touchReaches(
    [
      { x: 0, y: 0, width: 10, height: 10 },
      { x: 15, y: 0, width: 10, height: 10 },
    ],
    TOUCH_TARGET,
  );
  expect(first).toEqual({ left: 17, right: 2.5, top: 17, bottom: 17 });
  expect(second).toEqual({ left: 2.5, right: 17, top: 17, bottom: 17 });
});

test("no reach lies over another box or another box's reach, and none is more than the box wants", () => {
  const box = fc.record({
    x: fc.integer({ min: 0, max: 300 }),
    y: fc.integer({ min: 0, max: 300 }),
    width: fc.integer({ min: 1, max: 120 }),
    height: fc.integer({ min: 1, max: 60 }),
  });
  fc.assert(
    fc.property(fc.array(box, { maxLength: 14 }), (boxes) => {
      const reaches = touchReaches(boxes, TOUCH_TARGET);
      boxes.forEach((a, i) => {
        const reach = reaches[i] as Reach;
        for (const side of ["left", "right", "top", "bottom"] as const) {
          expect(reach[side]).toBeGreaterThanOrEqual(0);
          expect(reach[side]).toBeLessThanOrEqual(
            Math.max(0, (TOUCH_TARGET - Math.min(a.width, a.height)) / 2),
          );
        }
        boxes.forEach((b, j) => {
          // Boxes drawn over each other are the sender's to fix; their reaches are no matter then.
          if (j === i || meet(area(a, none), area(b, none))) return;
          expect(meet(area(a, reach), area(b, none))).toBe(false);
          expect(meet(area(a, reach), area(b, reaches[j] as Reach))).toBe(false);
        });
      });
    }),
    { numRuns: 500 },
  );
});
