"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface TrendPoint {
  run: string;
  date: string;
  n: number;
  mismatch: number;
  rates: Record<string, number>;
}

const SERIES: { label: string; color: string; dash?: string }[] = [
  { label: "INJECT", color: "#b91c1c" },
  { label: "ASK", color: "#047857" },
  { label: "OMIT", color: "#0f766e", dash: "4 3" },
  { label: "COPY", color: "#0369a1", dash: "2 3" },
  { label: "DRIFT", color: "#b45309", dash: "6 3" },
];

function MismatchDot(props: { cx?: number; cy?: number; payload?: TrendPoint; stroke?: string }) {
  const { cx, cy, payload, stroke } = props;
  if (cx === undefined || cy === undefined) return null;
  if (payload && payload.mismatch > 0) {
    // A hollow diamond: this run's payloads named another model.
    return (
      <path
        d={`M${cx},${cy - 6} L${cx + 6},${cy} L${cx},${cy + 6} L${cx - 6},${cy} Z`}
        fill="white"
        stroke="#7c2d12"
        strokeWidth={2}
      />
    );
  }
  return <circle cx={cx} cy={cy} r={3} fill={stroke} />;
}

/** One model's label rates over its runs: live labels are weather, the trend is the climate. */
export function TrendChart({ model, field, points }: { model: string; field: string; points: TrendPoint[] }) {
  const data = points.map((p) => ({
    ...p,
    ...Object.fromEntries(SERIES.map((s) => [s.label, +(100 * (p.rates[s.label] ?? 0)).toFixed(1)])),
  }));
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-3" data-testid="trend-chart">
      <figcaption className="mb-1 flex items-baseline justify-between text-sm">
        <span className="font-mono font-medium">{model}</span>
        <span className="text-xs text-slate-500">
          {field} · {points.length} run{points.length === 1 ? "" : "s"}
        </span>
      </figcaption>
      <div className="h-52">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: -16 }}>
            <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
            <XAxis dataKey="date" tick={{ fontSize: 11 }} />
            <YAxis domain={[0, 100]} tickFormatter={(v) => `${v}%`} tick={{ fontSize: 11 }} />
            <Tooltip
              formatter={(v, name) => [`${v}%`, name]}
              labelFormatter={(_l, payload) => {
                const p = payload?.[0]?.payload as TrendPoint | undefined;
                if (!p) return "";
                return `${p.run} · n=${p.n}${p.mismatch ? ` · ${p.mismatch} answered by another model` : ""}`;
              }}
              contentStyle={{ fontSize: 12 }}
            />
            <Legend wrapperStyle={{ fontSize: 11 }} />
            {SERIES.map((s) => (
              <Line
                key={s.label}
                type="monotone"
                dataKey={s.label}
                stroke={s.color}
                strokeDasharray={s.dash}
                strokeWidth={s.label === "INJECT" ? 2.5 : 1.5}
                dot={s.label === "INJECT" ? <MismatchDot /> : { r: 2 }}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
