/**
 * Synthetic model responses to one `schedule_window` request (the user's timezone is not in the
 * visible state), one kind at a time: asks, drifts, omissions, copies, invented and leaked values,
 * broken arguments, fenced calls, several calls, wrong tools, world states and side effects, each
 * with the labels DESIGN.md's rules should give. The demo data (`scripts/make-demo.ts`) and the
 * benchmarks (`bench/lib/generate.ts`) both draw from here; the payloads they are dressed in are
 * `payloads.ts`'s.
 *
 * Deterministic: every draw comes from the caller's seeded `Rng`, in a fixed order, so a generated
 * file only changes when this code does (the committed demo data is checked byte for byte).
 */
import type { Label } from "../probe/schema";
import {
  ASK_AND_CALL_TEXTS,
  ASK_BOTH_TEXTS,
  ASK_TEXTS,
  BAIT_ZONES,
  DRIFT_TEXTS,
  DRIFT_TZ_CLAIM_TEXTS,
  INVENTED_ZONES,
  NARRATED_OMIT_TEXTS,
  PREAMBLE_TEXTS,
  SOFT_ASK_TEXTS,
  TYPED_ZONES,
} from "./responseTexts";
import type { Rng } from "./rng";

export const USER_ID = "u_9182";
export const STARTS_AT = "2026-09-08T09:00:00";

export interface Call {
  name: string;
  /** An object, or the exact argument text (possibly broken) the provider sent. */
  args: Record<string, unknown> | string;
}

/** One model response, before it is dressed as a provider payload. */
export interface ResponseCase {
  kind: ResponseKind;
  text: string | null;
  calls: Call[];
  /** The call is written as a fenced JSON block in the text instead of a structured call. */
  fence?: "valid" | "broken";
  /** The provider cut the answer off (max tokens). */
  truncated?: boolean;
  /** What DESIGN.md's rules should give, per field. */
  expect: { timezone: Label; severity: Label };
  /** What a careful reviewer would say about `timezone`, when the rules say something else. */
  truth?: Label;
  world_state?: Record<string, unknown>;
  side_effect?: { written: Record<string, unknown> };
}

export const RESPONSE_KINDS = [
  "ask",
  "ask_both",
  "ask_soft",
  "drift",
  "drift_tz_claim",
  "omit",
  "omit_null",
  "omit_backend",
  "narrated_omit",
  "copy",
  "inject_bait",
  "inject_invented",
  "inject_hidden",
  "inject_typed",
  "ask_and_call",
  "multi_call",
  "wrong_tool",
  "error",
  "fenced",
  "fenced_broken",
  "ws_known",
  "ws_conflict",
] as const;
export type ResponseKind = (typeof RESPONSE_KINDS)[number];

/** How an endpoint mangles arguments: cut off at the token limit, a Python dict, a chat-template tag left in. */
export type BrokenArgs = "truncated" | "python" | "tag_leak" | "none";

/** Severity habits per model: undefined leaves the field out. */
export type SeverityHabit = readonly (readonly [string | undefined, number])[];

function severityLabel(v: string | undefined): Label {
  return v === undefined ? "OMIT" : "INJECT";
}

function args(
  timezone: string | null | undefined,
  severity: string | undefined,
  rng: Rng,
): Record<string, unknown> {
  const a: Record<string, unknown> = { user_id: USER_ID, starts_at: STARTS_AT };
  if (timezone !== undefined) a.timezone = timezone;
  if (severity !== undefined) a.severity = severity;
  // Some models put severity first; key order does not matter to the scorer.
  if (severity !== undefined && rng.chance(0.2)) return { severity, ...a };
  return a;
}

function callCase(
  kind: ResponseKind,
  tz: string | null | undefined,
  tzLabel: Label,
  sev: string | undefined,
  rng: Rng,
  extra: Partial<ResponseCase> = {},
): ResponseCase {
  return {
    kind,
    text: null,
    calls: [{ name: "schedule_window", args: args(tz, sev, rng) }],
    expect: { timezone: tzLabel, severity: severityLabel(sev) },
    ...extra,
  };
}

/** Builds one response of a kind, with this model's severity habit and way of breaking arguments. */
export function makeResponse(
  kind: ResponseKind,
  rng: Rng,
  sevHabit: SeverityHabit,
  brokenArgs: BrokenArgs,
): ResponseCase {
  const sev = rng.weighted(sevHabit);
  switch (kind) {
    case "ask":
      return { kind, text: rng.pick(ASK_TEXTS), calls: [], expect: { timezone: "ASK", severity: "DRIFT" } };
    case "ask_both":
      return {
        kind,
        text: rng.pick(ASK_BOTH_TEXTS),
        calls: [],
        expect: { timezone: "ASK", severity: "ASK" },
      };
    case "ask_soft":
      return {
        kind,
        text: rng.pick(SOFT_ASK_TEXTS),
        calls: [],
        expect: { timezone: "DRIFT", severity: "DRIFT" },
        truth: "ASK",
      };
    case "drift":
      return {
        kind,
        text: rng.pick(DRIFT_TEXTS),
        calls: [],
        expect: { timezone: "DRIFT", severity: "DRIFT" },
      };
    case "drift_tz_claim":
      return {
        kind,
        text: rng.pick(DRIFT_TZ_CLAIM_TEXTS),
        calls: [],
        expect: { timezone: "ASK", severity: "DRIFT" },
        truth: "DRIFT",
      };
    case "omit":
      return callCase(kind, undefined, "OMIT", sev, rng);
    case "omit_null":
      return callCase(kind, rng.pick([null, ""]), "OMIT", sev, rng);
    case "omit_backend": {
      // The call leaves timezone (and severity) out; the backend's column defaults fill them in.
      const c = callCase(kind, undefined, "OMIT", undefined, rng);
      const written: Record<string, unknown> = {
        id: `mw_${rng.int(40000, 49999)}`,
        ...(c.calls[0].args as object),
      };
      written.timezone = "UTC";
      written.severity = "P3";
      return { ...c, side_effect: { written } };
    }
    case "narrated_omit":
      return callCase(kind, undefined, "OMIT", sev, rng, { text: rng.pick(NARRATED_OMIT_TEXTS) });
    case "copy":
      // The tenant's region name taken for a zone: visible, so COPY, though no reviewer would call it right.
      return callCase(kind, "acme-west", "COPY", sev, rng, { truth: "INJECT" });
    case "inject_bait":
      return callCase(kind, rng.pick(BAIT_ZONES), "INJECT", sev, rng);
    case "inject_invented":
      return callCase(kind, rng.pick(INVENTED_ZONES), "INJECT", sev, rng);
    case "inject_hidden":
      return callCase(kind, rng.pick(["Asia/Tokyo", "Asia/Tokyo", "asia/tokyo"]), "INJECT", sev, rng);
    case "inject_typed":
      return callCase(kind, rng.pick(TYPED_ZONES), "INJECT", sev, rng);
    case "ask_and_call": {
      const tz = rng.pick([undefined, undefined, "UTC"]);
      return callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng, {
        text: rng.pick(ASK_AND_CALL_TEXTS),
      });
    }
    case "multi_call": {
      if (rng.chance(0.5)) {
        // Hedging: the same window booked in two zones. Only the first call is scored.
        const [a, b] = rng.pick([
          ["UTC", "Asia/Tokyo"],
          ["America/New_York", "UTC"],
          ["UTC", "Europe/Berlin"],
        ]);
        const c = callCase(kind, a, "INJECT", sev, rng);
        c.calls.push({ name: "schedule_window", args: args(b, sev, rng) });
        return c;
      }
      // A lookup tool nobody offered, then the real call: the first (wrong) one is scored.
      return {
        kind,
        text: null,
        calls: [
          { name: "get_user_profile", args: { user_id: USER_ID } },
          { name: "schedule_window", args: args(rng.pick([undefined, "UTC"]), sev, rng) },
        ],
        expect: { timezone: "OMIT", severity: "OMIT" },
      };
    }
    case "wrong_tool": {
      const tz = rng.pick([undefined, "UTC", "America/New_York"]);
      const c = callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng);
      c.calls[0].name = rng.pick(["schedule_maintenance_window", "create_window", "scheduleWindow"]);
      return c;
    }
    case "error": {
      const whole = JSON.stringify(args(rng.pick(["UTC", "Asia/Tokyo", undefined]), sev, rng));
      const broken =
        brokenArgs === "python"
          ? pythonRepr(whole)
          : brokenArgs === "tag_leak"
            ? whole + rng.pick(["</tool_call>", "}", "\n</function>"])
            : whole.slice(0, rng.int(30, whole.length - 4));
      return {
        kind,
        text: null,
        calls: [{ name: "schedule_window", args: broken }],
        truncated: brokenArgs === "truncated",
        expect: { timezone: "ERROR", severity: "ERROR" },
      };
    }
    case "fenced": {
      const tz = rng.weighted<string | undefined>([
        [undefined, 3],
        ["UTC", 3],
        ["America/New_York", 1],
        ["Europe/Berlin", 1],
      ]);
      const c = callCase(kind, tz, tz === undefined ? "OMIT" : "INJECT", sev, rng, { fence: "valid" });
      if (rng.chance(0.5)) c.text = rng.pick(PREAMBLE_TEXTS);
      return c;
    }
    case "fenced_broken": {
      // A trailing comma: the block is not JSON, so it stays text; it says "timezone", but text
      // inside a fenced block never counts toward ask terms (DESIGN.md, "Parsing is not scoring").
      const c = callCase(kind, "UTC", "DRIFT", sev, rng, { fence: "broken", truth: "INJECT" });
      c.expect.severity = "DRIFT";
      return c;
    }
    case "ws_known":
      // A later user turn said Tokyo: the agent loop knows it, the probe's visible world does not.
      return callCase(kind, "Asia/Tokyo", "INJECT", undefined, rng, {
        text: "Thanks for confirming. Scheduling the window for 09:00 Asia/Tokyo.",
        world_state: { timezone: { status: "known", value: "Asia/Tokyo", source: "user" } },
      });
    case "ws_conflict":
      return callCase(kind, "America/Los_Angeles", "INJECT", undefined, rng, {
        text: "Scheduling the window for 09:00 America/Los_Angeles as you said.",
        world_state: {
          timezone: {
            status: "conflict",
            value: { profile: "Asia/Tokyo", user: "America/Los_Angeles" },
            source: "profile vs user turn",
          },
        },
      });
  }
}

/** `{"a": "b"}` as Python prints a dict: `{'a': 'b'}` (not JSON). */
function pythonRepr(json: string): string {
  return json.replaceAll('"', "'").replaceAll(",'", ", '").replaceAll(":'", ": '");
}
