/**
 * docs/benchmarks.svg: every figure against its target, one bar per mode, drawn so that the target
 * is the same line for all of them (a bar's length is how far the figure is from its bound, 1 being
 * the bound itself) and labelled with the figure as measured.
 */
import { writeFile } from "node:fs/promises";
import { type BenchSummary, verdicts } from "./targets.js";

const WIDTH = 1010;
const LABEL_WIDTH = 380;
const BAR_WIDTH = 400;
/** Bars are drawn up to twice the target; past that they are clipped and marked. */
const MAX_SCORE = 2;
const ROW = 22;
const TOP = 64;

const escapeXml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
/** Two significant digits below 1, so that 0.037 is not shown as the 0.04 it missed. */
const rounded = (n: number) =>
  Math.abs(n) >= 100
    ? String(Math.round(n))
    : Math.abs(n) >= 1
      ? String(Math.round(n * 100) / 100)
      : String(Number(n.toPrecision(2)));

export function chartSvg(summary: BenchSummary, date = new Date()): string {
  const rows = verdicts(summary);
  const height = TOP + rows.length * ROW + 40;
  const x = (score: number) => LABEL_WIDTH + (Math.min(score, MAX_SCORE) / MAX_SCORE) * BAR_WIDTH;
  const bars = rows.map((v, i) => {
    const y = TOP + i * ROW;
    const comparison = v.target.better === "higher" ? "≥" : "≤";
    const clipped = v.score > MAX_SCORE ? " ▸" : "";
    return [
      `<text x="${LABEL_WIDTH - 8}" y="${y + 15}" text-anchor="end">${escapeXml(`${v.mode} · ${v.target.label}`)}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y + 4}" width="${(x(v.score) - LABEL_WIDTH).toFixed(1)}" height="${ROW - 8}" fill="${v.met ? "#2e7d32" : "#e65100"}"><title>${escapeXml(`${v.target.label}: ${rounded(v.value)}, target ${comparison} ${rounded(v.bound)}`)}</title></rect>`,
      `<text x="${LABEL_WIDTH + BAR_WIDTH + 12}" y="${y + 15}">${escapeXml(`${rounded(v.value)}${clipped}  (target ${comparison} ${rounded(v.bound)})`)}</text>`,
    ].join("\n");
  });
  const targetX = x(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="system-ui, sans-serif" font-size="12" role="img" aria-labelledby="title">
<title id="title">Countersign benchmark figures against their targets, ${date.toISOString().slice(0, 10)}</title>
<rect width="100%" height="100%" fill="#fff"/>
<text x="16" y="24" font-size="16" font-weight="600">npm run bench, ${date.toISOString().slice(0, 10)}: each figure against its target</text>
<text x="16" y="44" fill="#555">Bar length: how far past its bound a figure is (the line is the target; longer is better either way). Green met, orange missed.</text>
${bars.join("\n")}
<line x1="${targetX}" y1="${TOP - 6}" x2="${targetX}" y2="${TOP + rows.length * ROW + 4}" stroke="#111" stroke-dasharray="4 3"/>
<text x="${targetX}" y="${TOP + rows.length * ROW + 20}" text-anchor="middle">target</text>
</svg>
`;
}

export async function writeChart(path: string, summary: BenchSummary): Promise<void> {
  await writeFile(path, chartSvg(summary));
}
