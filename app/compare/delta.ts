/**
 * A change of rate in percentage points, as shown: rounded to 0.1 pt first, so a change too
 * small to show (or none: 0.1 − 0.1 in floating point) reads "0.0 pt" with no arrow and no sign,
 * never "−0.0 pt".
 */
export function formatDelta(delta: number): { arrow: "▲" | "▼" | ""; text: string } {
  const tenths = Math.round(delta * 1000);
  if (tenths === 0 || !Number.isFinite(tenths)) return { arrow: "", text: "0.0 pt" };
  const pt = (Math.abs(tenths) / 10).toFixed(1);
  return tenths > 0 ? { arrow: "▲", text: `+${pt} pt` } : { arrow: "▼", text: `−${pt} pt` };
}
