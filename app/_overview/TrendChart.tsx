"use client";

import { useRouter } from "next/navigation";
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { TrendPoint } from "./trend";

type Marker = "circle" | "triangle" | "square" | "ring" | "cross";

/**
 * One style per label: a hue, a dash pattern and a marker, so no two series differ by colour
 * alone (ASK and OMIT, both "good" answers, are a solid green line with triangles and a dashed
 * violet one with squares).
 */
export const SERIES: { label: string; color: string; dash?: string; marker: Marker; width: number }[] = [
  { label: "INJECT", color: "#b91c1c", marker: "circle", width: 2.5 },
  { label: "ASK", color: "#15803d", marker: "triangle", width: 1.75 },
  { label: "OMIT", color: "#7c3aed", dash: "6 3", marker: "square", width: 1.75 },
  { label: "COPY", color: "#0369a1", dash: "2 3", marker: "ring", width: 1.5 },
  { label: "DRIFT", color: "#b45309", dash: "9 3 2 3", marker: "cross", width: 1.5 },
];

/** A marker centred on (x, y). */
function MarkerShape({
  kind,
  x,
  y,
  color,
  r = 3.5,
}: {
  kind: Marker;
  x: number;
  y: number;
  color: string;
  r?: number;
}) {
  switch (kind) {
    case "triangle":
      return (
        <path d={`M${x},${y - r - 0.5} L${x + r},${y + r - 0.5} L${x - r},${y + r - 0.5} Z`} fill={color} />
      );
    case "square":
      return <rect x={x - r + 0.5} y={y - r + 0.5} width={2 * r - 1} height={2 * r - 1} fill={color} />;
    case "ring":
      return <circle cx={x} cy={y} r={r - 0.5} fill="white" stroke={color} strokeWidth={1.5} />;
    case "cross":
      return (
        <path
          d={`M${x - r},${y - r} L${x + r},${y + r} M${x - r},${y + r} L${x + r},${y - r}`}
          stroke={color}
          strokeWidth={1.75}
        />
      );
    default:
      return <circle cx={x} cy={y} r={r} fill={color} />;
  }
}

const pct = (x: number) => `${Math.round(x * 100)}%`;

import { runHref } from "@/lib/runPath";

/**
 * A point that opens its run. INJECT's points are the keyboard's links (one tab stop per run);
 * the other series' points are links for the mouse only. A run whose payloads named another
 * model gets a hollow diamond on the INJECT line.
 */
function PointLink(props: {
  cx?: number;
  cy?: number;
  payload?: TrendPoint;
  series: (typeof SERIES)[number];
}) {
  const { cx, cy, payload, series } = props;
  if (cx === undefined || cy === undefined || !payload) return null;
  const inject = series.label === "INJECT";
  const rate = payload.rates[series.label] ?? 0;
  const [low, high] = payload.bands[series.label] ?? [0, 1];
  return (
    <a
      href={runHref(payload.run)}
      tabIndex={inject ? 0 : -1}
      aria-label={`${payload.run}: ${series.label} ${pct(rate)} of ${payload.n} (95% interval ${pct(low)}–${pct(high)}). Open the run.`}
      data-testid={inject ? "trend-point" : undefined}
      data-run={payload.run}
      className="cursor-pointer"
    >
      {/* A larger invisible target than the marker itself. */}
      <circle cx={cx} cy={cy} r={12} fill="transparent" />
      {inject && payload.mismatch > 0 ? (
        <path
          d={`M${cx},${cy - 6} L${cx + 6},${cy} L${cx},${cy + 6} L${cx - 6},${cy} Z`}
          fill="white"
          stroke="#7c2d12"
          strokeWidth={2}
          data-testid="trend-mismatch"
        />
      ) : (
        <MarkerShape kind={series.marker} x={cx} y={cy} color={series.color} r={inject ? 4 : 3.5} />
      )}
    </a>
  );
}

/** The sample of one series' line and marker, for a legend. */
export function SeriesSwatch({ label }: { label: string }) {
  const s = SERIES.find((x) => x.label === label);
  if (!s) return null;
  return (
    <svg width="30" height="12" viewBox="0 0 30 12" aria-hidden="true" className="inline-block align-middle">
      <line x1="1" y1="6" x2="29" y2="6" stroke={s.color} strokeWidth={s.width} strokeDasharray={s.dash} />
      <MarkerShape kind={s.marker} x={15} y={6} color={s.color} />
    </svg>
  );
}

/** What the lines, markers, bands and diamonds of the trend charts mean; shown once above them. */
export function TrendLegend() {
  return (
    <ul
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-slate-700"
      data-testid="trend-legend"
    >
      {SERIES.map((s) => (
        <li
          key={s.label}
          className="flex items-center gap-1"
          data-label={s.label}
          data-dash={s.dash ?? "solid"}
        >
          <SeriesSwatch label={s.label} />
          <span className="font-mono">{s.label}</span>
        </li>
      ))}
      <li className="flex items-center gap-1">
        <svg width="18" height="12" aria-hidden="true" className="inline-block">
          <rect x="1" y="1" width="16" height="10" fill="#b91c1c" fillOpacity={0.15} />
        </svg>
        shaded: the 95% interval
      </li>
      <li className="flex items-center gap-1">
        <svg width="14" height="14" aria-hidden="true" className="inline-block">
          <path d="M7,1 L13,7 L7,13 L1,7 Z" fill="white" stroke="#7c2d12" strokeWidth={2} />
        </svg>
        payloads named another model
      </li>
      <li className="text-slate-500">click a point to open its run</li>
    </ul>
  );
}

/** One model's label rates over its runs, each with its interval: live labels are weather, the trend is the climate. */
export function TrendChart({ model, field, points }: { model: string; field: string; points: TrendPoint[] }) {
  const router = useRouter();
  const data = points.map((p) => ({
    ...p,
    ...Object.fromEntries(
      SERIES.flatMap((s) => {
        const [low, high] = p.bands[s.label] ?? [0, 0];
        return [
          [s.label, +(100 * (p.rates[s.label] ?? 0)).toFixed(1)],
          [`${s.label}_band`, [+(100 * low).toFixed(1), +(100 * high).toFixed(1)]],
        ];
      }),
    ),
  }));
  return (
    <figure
      className="rounded-lg border border-slate-200 bg-white p-3"
      data-testid="trend-chart"
      data-model={model}
    >
      <figcaption className="mb-1 flex items-baseline justify-between gap-2 text-sm">
        <span className="ident font-mono font-medium">{model}</span>
        <span className="shrink-0 text-xs text-slate-500">
          {field} · {points.length} run{points.length === 1 ? "" : "s"}
        </span>
      </figcaption>
      <div className="h-48">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart
            data={data}
            margin={{ top: 8, right: 12, bottom: 0, left: -16 }}
            onClick={(state) => {
              const i = Number(state?.activeIndex);
              if (Number.isInteger(i) && points[i]) router.push(runHref(points[i].run));
            }}
            className="cursor-pointer"
          >
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            <XAxis dataKey="date" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 100]} tickFormatter={(v) => `${v}%`} tick={{ fontSize: 11 }} />
            <Tooltip
              formatter={(v, name) =>
                Array.isArray(v)
                  ? [`${v[0]}–${v[1]}%`, `${String(name).replace("_band", "")} 95%`]
                  : [`${v}%`, name]
              }
              labelFormatter={(_l, payload) => {
                const p = payload?.[0]?.payload as TrendPoint | undefined;
                if (!p) return "";
                return `${p.run} · n=${p.n}${p.mismatch ? ` · ${p.mismatch} answered by another model` : ""}`;
              }}
              contentStyle={{ fontSize: 12 }}
            />
            {SERIES.map((s) => (
              <Area
                key={`${s.label}_band`}
                type="monotone"
                dataKey={`${s.label}_band`}
                stroke="none"
                fill={s.color}
                fillOpacity={s.label === "INJECT" ? 0.14 : 0.07}
                isAnimationActive={false}
                activeDot={false}
                legendType="none"
                className="trend-band"
              />
            ))}
            {SERIES.map((s) => (
              <Line
                key={s.label}
                type="monotone"
                dataKey={s.label}
                stroke={s.color}
                strokeDasharray={s.dash}
                strokeWidth={s.width}
                dot={(props) => <PointLink key={`${s.label}-${props.index}`} {...props} series={s} />}
                activeDot={false}
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
