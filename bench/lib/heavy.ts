/**
 * Heavy trace records: one record per shape that could make a page's work grow with the record
 * (many keys, long arrays, long strings, deep nesting, big side parts of a record, many calls, a
 * huge inline probe, a huge `human`), each within the ingest limits (8 MB, 64 levels of nesting).
 * Used by `npm run bench:heavy` and by the end-to-end test of a huge trace. Deterministic.
 */

const USER_ID = "u_9182";
const STARTS_AT = "2026-09-08T09:00:00";

export interface HeavyShape {
  /** The record's id (and the shape's name). */
  id: string;
  /** What it holds, for the benchmark's table. */
  what: string;
  record: () => Record<string, unknown>;
}

const pad = (i: number) => String(i).padStart(6, "0");

/** An object of `n` keys `k000000`... with small values. */
export function manyKeys(n: number, value: (i: number) => unknown = () => 1): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) out[`k${pad(i)}`] = value(i);
  return out;
}

/** Words with spaces, so the text is prose-like; `at` puts a phrase in the middle. */
function prose(chars: number, phrase = ""): string {
  const words = ["window", "maintenance", "schedule", "tenant", "please", "confirm", "the", "at"];
  const parts: string[] = [];
  let size = 0;
  let i = 0;
  while (size < chars) {
    const w = words[(i * 7 + (i >> 3)) % words.length];
    parts.push(w);
    size += w.length + 1;
    i++;
    if (phrase && size >= chars / 2 && size < chars / 2 + 12) parts.push(phrase);
  }
  return parts.join(" ");
}

/** A value nested `depth` levels deep (objects and arrays alternating), with a scalar at each level. */
function nested(depth: number): unknown {
  let v: unknown = "bottom";
  for (let d = 0; d < depth; d++) v = d % 2 ? { level: d, next: v } : [d, v];
  return v;
}

function call(args: unknown) {
  return { name: "schedule_window", arguments: args };
}

const base = (id: string, response: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  probe: "schedule_window",
  response,
  ...extra,
});

const goodArgs = { user_id: USER_ID, starts_at: STARTS_AT };

export const HEAVY_SHAPES: HeavyShape[] = [
  {
    id: "keys-500k",
    what: "arguments with 500,000 keys (timezone last)",
    record: () =>
      base("keys-500k", {
        tool_calls: [call({ ...goodArgs, ...manyKeys(500_000), timezone: "UTC" })],
      }),
  },
  {
    id: "args-string-450k",
    what: "a chat completion whose arguments string holds 450,000 keys",
    record: () =>
      base("args-string-450k", undefined, {
        response: undefined,
        raw: {
          object: "chat.completion",
          model: "heavy-model",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: [
                  {
                    id: "call_1",
                    type: "function",
                    function: {
                      name: "schedule_window",
                      arguments: JSON.stringify({ ...goodArgs, ...manyKeys(450_000), timezone: "gmt" }),
                    },
                  },
                ],
              },
            },
          ],
        },
      }),
  },
  {
    id: "array-500k",
    what: "an argument that is a 500,000-element array",
    record: () =>
      base("array-500k", {
        tool_calls: [
          call({ ...goodArgs, timezone: "Asia/Tokyo", slots: Array.from({ length: 500_000 }, (_, i) => i) }),
        ],
      }),
  },
  {
    id: "string-7mb",
    what: "an argument that is one 7 MB string without spaces",
    record: () =>
      base("string-7mb", {
        tool_calls: [call({ ...goodArgs, timezone: "UTC", note: "abcdefghij".repeat(700_000) })],
      }),
  },
  {
    id: "medium-strings",
    what: "1,500 arguments of 4 KB strings each",
    record: () =>
      base("medium-strings", {
        tool_calls: [
          call({ ...goodArgs, ...manyKeys(1_500, (i) => prose(4_000 + (i % 7))), timezone: "UTC" }),
        ],
      }),
  },
  {
    id: "deep-64",
    what: "nesting to the 64-level limit, 2,000 times over",
    record: () =>
      base("deep-64", {
        tool_calls: [
          call({ ...goodArgs, timezone: "UTC", tree: Array.from({ length: 2_000 }, () => nested(58)) }),
        ],
      }),
  },
  {
    id: "big-raw",
    what: "a raw payload with 500,000 keys beside a small response",
    record: () =>
      base(
        "big-raw",
        { text: "Which timezone should I use?", tool_calls: [] },
        {
          raw: {
            object: "chat.completion",
            model: "heavy-model",
            choices: [{ index: 0, message: { role: "assistant", content: "Which timezone should I use?" } }],
            extra: manyKeys(500_000),
          },
        },
      ),
  },
  {
    id: "big-world-state",
    what: "a world_state of 100,000 facts",
    record: () =>
      base(
        "big-world-state",
        { tool_calls: [call({ ...goodArgs, timezone: "UTC" })] },
        {
          world_state: {
            ...manyKeys(100_000, (i) => ({
              status: i % 3 ? "known" : "unknown",
              value: `v${i}`,
              source: "state",
            })),
            timezone: { status: "known", value: "UTC", source: "state" },
          },
        },
      ),
  },
  {
    id: "big-written",
    what: "a side_effect.written row with 500,000 keys",
    record: () =>
      base(
        "big-written",
        { tool_calls: [call({ ...goodArgs })] },
        { side_effect: { written: { ...goodArgs, ...manyKeys(500_000), timezone: "UTC" } } },
      ),
  },
  {
    id: "big-text",
    what: "a 7 MB response text, no call",
    record: () =>
      base("big-text", { text: prose(7_000_000, "which time zone do you mean?"), tool_calls: [] }),
  },
  {
    id: "many-calls",
    what: "60,000 tool calls",
    record: () =>
      base("many-calls", {
        tool_calls: Array.from({ length: 60_000 }, (_, i) =>
          call({ ...goodArgs, timezone: i ? `z${i}` : "UTC" }),
        ),
      }),
  },
  {
    id: "huge-schema",
    what: "an inline probe whose tool has 50,000 parameters",
    record: () => {
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < 50_000; i++) {
        properties[`p${pad(i)}`] = { type: "string", description: prose(60), enum: ["a", "b", "c"] };
      }
      properties.timezone = { type: "string", description: "IANA time zone" };
      return {
        id: "huge-schema",
        probe: {
          id: "huge_schema",
          system: "You schedule things.",
          user: "Schedule a window at 2026-09-08T09:00:00.",
          hidden: { timezone: "Asia/Tokyo" },
          redacted: { user_id: USER_ID, ...manyKeys(10_000, (i) => `r${i}`) },
          tool: {
            name: "schedule_window",
            description: prose(2_000),
            parameters: { type: "object", properties },
          },
          fields: ["timezone"],
          bait: ["UTC"],
        },
        response: { tool_calls: [call({ timezone: "UTC", p000001: "a" })] },
      };
    },
  },
  {
    id: "huge-human",
    what: "a human object of 450,000 labels",
    record: () =>
      base(
        "huge-human",
        { tool_calls: [call({ ...goodArgs, timezone: "UTC" })] },
        { human: { ...manyKeys(450_000, () => "ASK"), timezone: "INJECT" } },
      ),
  },
  {
    id: "big-params",
    what: "params with 500,000 keys and a label object of 100,000 fields",
    record: () =>
      base(
        "big-params",
        { tool_calls: [call({ ...goodArgs, timezone: "UTC" })] },
        { params: manyKeys(400_000), label: { ...manyKeys(100_000, () => "COPY"), timezone: "INJECT" } },
      ),
  },
];

/** The lines of a run of heavy records, with a few ordinary ones around them. */
export function heavyLines(run: string, shapes: HeavyShape[] = HEAVY_SHAPES): string[] {
  const lines: string[] = [];
  const plain = (id: string, tz: string) =>
    JSON.stringify({
      id,
      run,
      model: "heavy-model",
      probe: "schedule_window",
      response: { tool_calls: [call({ ...goodArgs, timezone: tz })] },
    });
  lines.push(plain("plain-1", "UTC"), plain("plain-2", "Asia/Tokyo"));
  for (const s of shapes) {
    const r: Record<string, unknown> = { ...s.record(), run, model: "heavy-model" };
    if (r.response === undefined) delete r.response;
    lines.push(JSON.stringify(r));
  }
  lines.push(plain("plain-3", "America/New_York"));
  return lines;
}
