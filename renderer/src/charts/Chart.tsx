// A small uPlot line chart. uPlot draws on canvas and updates with setData, so a chart
// with thousands of points costs well under a millisecond per refresh.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Lang } from "../i18n";
import { lineRuns } from "../logic";

/** A y tick label: 950, 12k, 120k, 1.5M; in Japanese by 万 and 億 (1.2万, 12万, 150万, 1.5億). */
export function compact(v: number, lang: Lang = "en"): string {
  const a = Math.abs(v);
  if (lang === "ja") {
    if (a >= 1e8) return `${+(v / 1e8).toFixed(a >= 1e9 ? 0 : 1)}億`;
    if (a >= 1e4) return `${+(v / 1e4).toFixed(a >= 1e5 ? 0 : 1)}万`;
    return String(+v.toFixed(2));
  }
  if (a >= 1e6) return `${+(v / 1e6).toFixed(a >= 1e7 ? 0 : 1)}M`;
  if (a >= 1e4) return `${+(v / 1e3).toFixed(a >= 1e5 ? 0 : 1)}k`;
  return String(+v.toFixed(2));
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * An x tick label in 24-hour local time, as precise as the visible span needs: "14:05:30"
 * within ten minutes, "14:05" within a day, beyond it the date too: "11-23 14:05" (month
 * first, never the US order with the year), in Japanese "11月23日 14:05".
 */
export function timeTick(sec: number, spanSec: number, lang: Lang = "en"): string {
  const d = new Date(sec * 1000);
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (spanSec <= 600) return `${hm}:${pad(d.getSeconds())}`;
  if (spanSec <= 86_400) return hm;
  if (lang === "ja") return `${d.getMonth() + 1}月${d.getDate()}日 ${hm}`;
  return `${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${hm}`;
}

export interface ChartProps {
  title: string;
  testId?: string;
  /** x in seconds since epoch, then one series. */
  xs: number[];
  ys: Array<number | null>;
  label: string;
  color: string;
  height?: number;
  /** Changing it redraws with the theme's colours (canvas cannot read CSS variables). */
  theme: string;
  /** The language of the axis labels (drawn on the canvas, so not in the DOM's text). */
  lang: Lang;
}

export function Chart({ title, testId, xs, ys, label, color, height = 150, theme, lang }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const xsRef = useRef(xs);
  const ysRef = useRef(ys);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const css = getComputedStyle(document.documentElement);
    const fg = css.getPropertyValue("--fg-dim").trim() || "#888";
    const grid = css.getPropertyValue("--grid").trim() || "#444";
    // The strings drawn on the canvas, written to data-canvas-labels after each draw so tests
    // (the Japanese one) can read what the user sees.
    const drawn: [string[], string[]] = [[], []];
    const opts: uPlot.Options = {
      title,
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      scales: { x: { time: true } },
      axes: [
        // Time labels of our own, spaced so they never overlap (uPlot's default is US-style).
        {
          stroke: fg,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          space: 90,
          values: (u, splits) => {
            const span = (u.scales.x.max ?? 0) - (u.scales.x.min ?? 0);
            return (drawn[0] = splits.map((s) => timeTick(s, span, lang)));
          },
        },
        // Compact tick labels ("120k", "1.5M", "12万") so long numbers never run past the axis.
        {
          stroke: fg,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          size: 60,
          values: (_u, splits) => (drawn[1] = splits.map((v) => compact(v, lang))),
        },
      ],
      // A null (a pause, a stop, a new run) breaks the line: nothing is drawn across it.
      series: [{}, { label, stroke: color, width: 2, spanGaps: false }],
      hooks: {
        draw: [
          (u) => {
            // Where the x scale sits on the canvas (device pixels), for tests that read the drawing.
            el.dataset.xMin = String(u.scales.x.min ?? "");
            el.dataset.xMax = String(u.scales.x.max ?? "");
            el.dataset.plot = [u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height].map(Math.round).join(",");
            // The strings drawn on the canvas (axis labels), for tests that check their language.
            el.setAttribute("data-canvas-labels", JSON.stringify([...drawn[0], ...drawn[1]]));
          },
        ],
      },
    };
    const u = new uPlot(opts, [xsRef.current, ysRef.current], el);
    plot.current = u;
    const ro = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height }));
    ro.observe(el);
    return () => {
      ro.disconnect();
      u.destroy();
      plot.current = null;
    };
  }, [title, label, color, height, theme, lang]);

  useEffect(() => {
    xsRef.current = xs;
    ysRef.current = ys;
    plot.current?.setData([xs, ys]);
  }, [xs, ys]);

  return <div className="chart" ref={box} data-testid={testId} data-points={xs.length} data-lines={lineRuns(ys)} data-color={color} />;
}
