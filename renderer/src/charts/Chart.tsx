// A small uPlot line chart. uPlot draws on canvas and updates with setData, so a chart
// with thousands of points costs well under a millisecond per refresh.
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { Lang } from "../i18n";
import { DURATION_STEPS, durationTick, lineRuns } from "../logic";

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

export interface ChartProps {
  title: string;
  testId?: string;
  /** x: digging time in seconds (chartSeries), then one series. */
  xs: number[];
  ys: Array<number | null>;
  label: string;
  color: string;
  height?: number;
  /** Changing it redraws with the theme's colours (canvas cannot read CSS variables). */
  theme: string;
  /** The language of the axis labels (drawn on the canvas, so not in the DOM's text). */
  lang: Lang;
  /** The x axis's title (drawn on the canvas): what the time is. */
  xLabel: string;
}

/** Points are drawn as dots while they are at least this many pixels apart (a short run is a few dots, not nothing). */
const POINT_SPACING_PX = 6;

export function Chart({ title, testId, xs, ys, label, color, height = 150, theme, lang, xLabel }: ChartProps) {
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
    let showPoints = false;
    const opts: uPlot.Options = {
      title,
      width: Math.max(200, el.clientWidth),
      height,
      legend: { show: false },
      scales: { x: { time: false } },
      axes: [
        // Digging time (pauses and the time between runs removed), in round steps labelled down
        // to the step's unit so no two ticks read the same.
        {
          stroke: fg,
          grid: { stroke: grid },
          ticks: { stroke: grid },
          space: 70,
          incrs: DURATION_STEPS,
          label: xLabel,
          labelSize: 18,
          values: (_u, splits, _axis, _space, step) => (drawn[0] = splits.map((s) => durationTick(s, step, lang))),
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
      // A null (a pause, a stop, a new run) breaks the line: nothing is drawn across it. Dots
      // mark the points while there is room, so a run of one or two samples still shows.
      series: [
        {},
        {
          label,
          stroke: color,
          width: 2,
          spanGaps: false,
          points: {
            show: (u) => (showPoints = u.data[0].length <= u.bbox.width / devicePixelRatio / POINT_SPACING_PX),
            size: 5,
            fill: color,
          },
        },
      ],
      hooks: {
        draw: [
          (u) => {
            // Where the x scale sits on the canvas (device pixels), for tests that read the drawing.
            el.dataset.xMin = String(u.scales.x.min ?? "");
            el.dataset.xMax = String(u.scales.x.max ?? "");
            el.dataset.plot = [u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height].map(Math.round).join(",");
            el.dataset.showPoints = String(showPoints);
            // The strings drawn on the canvas (axis labels and titles), for tests that check their language.
            el.setAttribute("data-x-labels", JSON.stringify(drawn[0]));
            el.setAttribute("data-canvas-labels", JSON.stringify([...drawn[0], ...drawn[1], xLabel]));
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
  }, [title, label, color, height, theme, lang, xLabel]);

  useEffect(() => {
    xsRef.current = xs;
    ysRef.current = ys;
    plot.current?.setData([xs, ys]);
  }, [xs, ys]);

  return <div className="chart" ref={box} data-testid={testId} data-points={xs.length} data-lines={lineRuns(ys)} data-color={color} />;
}
