/**
 * How far each field's touch area reaches past its drawn box: toward 44 × 44 CSS pixels (WCAG 2.5.5),
 * but only into free space. Two fields whose reaches would meet split the gap between them along the
 * axis it is widest, so no reach lies over another field's box or another field's reach, and a tap
 * between two fields goes to the nearer one.
 */

/** The smallest touch target, in CSS pixels. */
export const TOUCH_TARGET = 44;

/** A drawn box, in any one unit. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How far a box's touch area reaches past each of its sides, in the boxes' unit. */
export interface Reach {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The reach each box wants on its own: enough for `target` on both axes. */
function wanted(box: Box, target: number): Reach {
  const x = Math.max(0, (target - box.width) / 2);
  const y = Math.max(0, (target - box.height) / 2);
  return { left: x, right: x, top: y, bottom: y };
}

function grown(box: Box, reach: Reach): { left: number; right: number; top: number; bottom: number } {
  return {
    left: box.x - reach.left,
    right: box.x + box.width + reach.right,
    top: box.y - reach.top,
    bottom: box.y + box.height + reach.bottom,
  };
}

/** The reach of each box (in the same order), `target` in the boxes' unit. */
export function touchReaches(boxes: readonly Box[], target: number): Reach[] {
  const wants = boxes.map((box) => wanted(box, target));
  const areas = boxes.map((box, i) => grown(box, wants[i] as Reach));
  return boxes.map((box, i) => {
    const reach = { ...(wants[i] as Reach) };
    const area = areas[i] as ReturnType<typeof grown>;
    boxes.forEach((other, j) => {
      const near = areas[j] as ReturnType<typeof grown>;
      const apart =
        j === i ||
        near.left >= area.right ||
        area.left >= near.right ||
        near.top >= area.bottom ||
        area.top >= near.bottom;
      if (apart) return;
      // Both boxes measure the same gaps and so pick the same axis: their reaches end apart on it.
      const right = other.x - (box.x + box.width);
      const left = box.x - (other.x + other.width);
      const below = other.y - (box.y + box.height);
      const above = box.y - (other.y + other.height);
      if (Math.max(right, left) >= Math.max(below, above)) {
        if (right >= left) reach.right = Math.min(reach.right, Math.max(0, right / 2));
        else reach.left = Math.min(reach.left, Math.max(0, left / 2));
      } else if (below >= above) reach.bottom = Math.min(reach.bottom, Math.max(0, below / 2));
      else reach.top = Math.min(reach.top, Math.max(0, above / 2));
    });
    return reach;
  });
}
