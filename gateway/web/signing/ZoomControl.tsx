/**
 * The document's zoom, for small print and a phone's narrow screen: from fitting the width (100 %) up to three
 * times that, the page scrolling sideways beyond. Pinch-zoom works too; this is the control that
 * keeps field boxes and the page in step.
 */
import { useIntl } from "react-intl";
import { useT } from "./i18n/Language";

const ZOOMS = [1, 1.5, 2, 3] as const;

/** A box's height, in CSS pixels, at which what is typed in it reads well (its text is 55 % of it: 13 px). */
export const READABLE_HEIGHT = 24;

/**
 * The zoom at which a box to type in reads well where the page draws it small (a phone's fit width): the
 * first step up from `zoom` at which the box is READABLE_HEIGHT tall, or the last at which it still fits
 * the column's `columnWidth`; `zoom` itself where the box reads well already. Sizes in PDF points but the
 * column's, which is in CSS pixels as the page's width is drawn from it.
 */
export function readableZoom(
  box: { width: number; height: number },
  pageWidth: number,
  columnWidth: number,
  zoom: number,
): number {
  const scale = (step: number) => Math.floor(columnWidth * step) / pageWidth;
  let chosen = zoom;
  for (const step of [zoom, ...ZOOMS.filter((z) => z > zoom)]) {
    if (step !== zoom && box.width * scale(step) > columnWidth - 16) break;
    chosen = step;
    if (box.height * scale(step) >= READABLE_HEIGHT) break;
  }
  return chosen;
}

export function ZoomControl({ zoom, onZoom }: { zoom: number; onZoom: (zoom: number) => void }) {
  const t = useT();
  const intl = useIntl();
  const at = ZOOMS.findIndex((z) => z >= zoom);
  const percent = intl.formatNumber(zoom, { style: "percent" });
  return (
    <fieldset className="zoom">
      <legend className="visually-hidden">{t("zoom.legend")}</legend>
      <button
        type="button"
        className="button secondary small"
        aria-label={t("zoom.out")}
        disabled={at <= 0}
        onClick={() => onZoom(ZOOMS[Math.max(0, at - 1)] ?? 1)}
      >
        −
      </button>
      <output className="zoom-level" aria-live="polite" data-testid="zoom-level">
        {percent}
      </output>
      <button
        type="button"
        className="button secondary small"
        aria-label={t("zoom.in")}
        disabled={at >= ZOOMS.length - 1}
        onClick={() => onZoom(ZOOMS[Math.min(ZOOMS.length - 1, at + 1)] ?? 1)}
      >
        +
      </button>
      <button type="button" className="button link small" disabled={zoom === 1} onClick={() => onZoom(1)}>
        {t("zoom.fit")}
      </button>
    </fieldset>
  );
}
