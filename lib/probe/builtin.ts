import bookSlot from "../../fixtures/probes/book_slot.json" with { type: "json" };
import deployService from "../../fixtures/probes/deploy_service.json" with { type: "json" };
import openIncident from "../../fixtures/probes/open_incident.json" with { type: "json" };
import scheduleWindow from "../../fixtures/probes/schedule_window.json" with { type: "json" };
import { type Probe, ProbeSchema } from "./schema";

/** The built-in probes, from the JSON files in fixtures/probes/ (validated on first use). */
const SOURCES: unknown[] = [scheduleWindow, bookSlot, deployService, openIncident];

export const DEFAULT_PROBE_ID = "schedule_window";

let cached: Map<string, Probe> | null = null;

export function builtinProbes(): Map<string, Probe> {
  if (!cached) {
    cached = new Map();
    for (const src of SOURCES) {
      const probe = ProbeSchema.parse(src);
      cached.set(probe.id, probe);
    }
  }
  return cached;
}
