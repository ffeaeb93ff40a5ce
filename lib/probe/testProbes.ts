import { builtinProbes } from "./builtin";
import { type Probe, type ProbeInput, ProbeSchema } from "./schema";

/** The built-in schedule_window probe, for tests. */
export function scheduleWindow(): Probe {
  const p = builtinProbes().get("schedule_window");
  if (!p) throw new Error("schedule_window is missing from the built-in probes");
  return p;
}

/** schedule_window with some parts replaced, validated like any probe. */
export function variant(overrides: Partial<ProbeInput>): Probe {
  return ProbeSchema.parse({ ...scheduleWindow(), ...overrides });
}
