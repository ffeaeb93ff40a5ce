/**
 * The two gates agree: generated world states (well-formed and not) and calls go through the TypeScript
 * gate here and through the Python twin in one long-lived python3 process reading JSON lines, and both
 * must give the same parse result, verdict, unknowns, conflicts, next step, error and decision record.
 */
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { GateDecisionRecord } from "../decisionLog";
import { GateDecisionRecordSchema } from "../decisionRecordSchema";
import { nextStep } from "../decisionTable";
import type { WorldState } from "../facts";
import { AssumptionError } from "../requireKnown";
import { sideEffect } from "../sideEffect";
import { parseWorldState } from "../worldState";
import { PythonLines, twinFolder } from "./testPython";

interface Request {
  payload: string;
  names: string[];
  requires: string[];
  mutating: boolean;
  args: unknown[];
  async: boolean;
}

const DRIVER = `
import asyncio, json, sys
import assumeprobe_gate as g

loop = asyncio.new_event_loop()  # one for every async call: asyncio.run would start one per request

def gate_json(gate):
    if gate is None:
        return None
    return {"verdict": gate.verdict, "unknown": list(gate.unknown), "conflict": list(gate.conflict), "next": gate.next}

def answer(req):
    out = {}
    try:
        parsed = g.parse_world_state(req["payload"], req["names"])
        out["parsed"] = {"ok": True}
    except g.WorldStateError as e:
        parsed = e
        out["parsed"] = {"ok": False, "error": e.message}
    step = g.next_step(parsed, req["requires"], mutating=req["mutating"])
    out["step"] = {"row": step.row, "message": step.message, "tool_call": step.tool_call, "gate": gate_json(step.gate)}
    if out["parsed"]["ok"]:
        records, ran = [], []
        if req["async"]:
            async def t(state, *args):
                ran.append(1)
            call = lambda: loop.run_until_complete(g.side_effect(*req["requires"], log=records.append)(t)(parsed, *req["args"]))
        else:
            def t(state, *args):
                ran.append(1)
            call = lambda: g.side_effect(*req["requires"], log=records.append)(t)(parsed, *req["args"])
        error = None
        try:
            call()
        except g.AssumptionError as e:
            error = {"fields": e.fields, "unknown": e.unknown, "conflict": e.conflict, "next": e.next,
                     "message": str(e), "step": {"row": e.step.row, "message": e.step.message}}
        out["side_effect"] = {"ran": len(ran), "error": error, "records": records}
    return out

for line in sys.stdin:
    sys.stdout.write(json.dumps(answer(json.loads(line))) + "\\n")
    sys.stdout.flush()
`;

async function typescriptAnswer(req: Request) {
  const parsed = parseWorldState(req.payload, req.names);
  const step = nextStep({ parsed, mutating: req.mutating, requires: req.requires });
  const out: Record<string, unknown> = {
    parsed: parsed.ok ? { ok: true } : { ok: false, error: parsed.error },
    step: {
      row: step.row,
      message: step.message,
      tool_call: step.toolCall,
      gate: step.gate && { ...step.gate, unknown: [...step.gate.unknown], conflict: [...step.gate.conflict] },
    },
  };
  if (!parsed.ok) return out;
  const records: GateDecisionRecord[] = [];
  let ran = 0;
  const fn: (s: WorldState, ...a: unknown[]) => unknown = req.async
    ? async function t() {
        ran++;
      }
    : function t() {
        ran++;
      };
  let error: unknown = null;
  try {
    await sideEffect(req.requires, fn, { log: (r) => records.push(r) })(parsed.state, ...req.args);
  } catch (e) {
    if (!(e instanceof AssumptionError)) throw e;
    error = {
      fields: e.fields,
      unknown: e.unknown,
      conflict: e.conflict,
      next: e.next,
      message: e.message,
      step: { row: e.step.row, message: e.step.message },
    };
  }
  out.side_effect = { ran, error, records: JSON.parse(JSON.stringify(records)) };
  return out;
}

/** What must agree: everything but the record's id, time and implementation, and a JSON syntax error's wording. */
function comparable(answer: Record<string, unknown>) {
  const a = structuredClone(answer) as {
    parsed: { ok: boolean; error?: string };
    step: { row: string; message: string };
    side_effect?: { records: Record<string, unknown>[] };
  };
  if (a.parsed.error?.startsWith("world state is not JSON: ")) a.parsed.error = "world state is not JSON: …";
  const step = a.step;
  if (step.row === "unparsed" && step.message.includes("(world state is not JSON: "))
    step.message = step.message.replace(/\(world state is not JSON: .*\)$/s, "(world state is not JSON: …)");
  for (const r of a.side_effect?.records ?? []) {
    expect(GateDecisionRecordSchema.safeParse(r).error).toBeUndefined();
    delete r.id;
    delete r.time;
    delete r.implementation;
  }
  return a;
}

// ---- generators: JSON text, so that what JavaScript refuses (NaN, Infinity, broken text) can be sent too.

const NAMES = [
  "user_id",
  "resource_id",
  "action_date",
  "timezone",
  "__proto__",
  "constructor",
  "toString",
  "1",
  "01",
  "0",
  "4294967295",
  "",
  "a b",
  "é",
  "😀",
];
/** Mostly the article's four names, so that states often hold every fact a call requires. */
const nameArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NAMES.slice(0, 4)) },
  { weight: 1, arbitrary: fc.constantFrom(...NAMES) },
);
/** A name as JSON text: plain, or spelled with escapes that read as the same name. */
const keyText = fc.oneof(
  { weight: 6, arbitrary: nameArb.map((n) => JSON.stringify(n)) },
  { weight: 1, arbitrary: fc.constantFrom('"user\\u005fid"', '"\\u0031"', '"\\ud83d\\ude00"', '"\\ud800"') },
  { weight: 1, arbitrary: fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s)) },
);

const NOT_JSON = ["NaN", "Infinity", "-Infinity"];
const finite = fc.double().filter(Number.isFinite);
const jsonValueText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      '""',
      "null",
      "0",
      "false",
      "true",
      "-0",
      "0.0",
      "-0.0",
      "1e400",
      "-1e400",
      "1E+2",
      "12345678901234567890",
      "1e21",
      "1e-7",
      "123e-20",
      "4.35",
      "[]",
      "{}",
      '" "',
      '"\\ud800"',
      '"x\\u0000y\\n"',
      JSON.stringify("é".repeat(45)),
      JSON.stringify("😀".repeat(25)),
      JSON.stringify(`${"a".repeat(39)}😀b`),
      `"${"\\u2028".repeat(41)}"`,
    ),
  },
  { weight: 2, arbitrary: finite.map((n) => JSON.stringify(n)) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 50 }).map((s) => JSON.stringify(s)) },
);
/** Any value's text, NaN and Infinity (which JSON does not have) included. */
const valueText = fc.oneof(
  { weight: 12, arbitrary: jsonValueText },
  { weight: 1, arbitrary: fc.constantFrom(...NOT_JSON) },
);

const ws = fc.constantFrom("", "", " ", "\n", "\t", " \r\n ");
const join = (parts: string[], gap: string) => `{${gap}${parts.join(`,${gap}`)}${gap}}`;

const STATUSES = ['"known"', '"known"', '"known"', '"known"', '"unknown"', '"conflict"', '"conflict"'];
const BAD_STATUSES = ['"Known"', '"KNOWN"', '""', '"known "', "1", "null", "true", "[]", "{}"];
const SOURCES = ['"session"', '"user"', '"agent"', '""'];
const BAD_SOURCES = ["1", "null", "false", '["user"]', "{}"];
const EXTRA_KEYS = ['"confidence": 0.9', '"1": 2', '"Status": "known"', '"value2": null'];

/** A fact as JSON text; a `messy` one may be malformed: a bad or missing status, a bad source, an extra key. */
function factText(messy: boolean): fc.Arbitrary<string> {
  const status = messy
    ? fc.option(
        fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...STATUSES) }, fc.constantFrom(...BAD_STATUSES)),
        {
          freq: 20,
        },
      )
    : fc.constantFrom(...STATUSES);
  const source = messy
    ? fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SOURCES) }, fc.constantFrom(...BAD_SOURCES))
    : fc.constantFrom(...SOURCES);
  const extra = messy
    ? fc.oneof({ weight: 15, arbitrary: fc.constant(null) }, fc.constantFrom(...EXTRA_KEYS))
    : fc.constant(null);
  return fc
    .record({
      status,
      value: fc.option(messy ? valueText : jsonValueText, { freq: 4 }),
      source: fc.option(source, { freq: 2 }),
      extra,
      gap: ws,
    })
    .chain(({ gap, extra, ...keys }) => {
      const entries = Object.entries(keys)
        .filter(([, v]) => v !== null)
        .map(([k, v]) => `"${k}": ${v}`);
      if (extra !== null) entries.push(extra);
      return fc.shuffledSubarray(entries, { minLength: entries.length }).map((e) => join(e, gap));
    });
}

/** A world state's text: facts by name, clean or messy; a messy one may also hold a value where a fact should be. */
function stateText(messy: boolean): fc.Arbitrary<string> {
  const entry = messy ? fc.oneof({ weight: 8, arbitrary: factText(true) }, valueText) : factText(false);
  return fc.tuple(fc.array(fc.tuple(keyText, entry), { maxLength: 6 }), ws).map(([entries, gap]) =>
    join(
      entries.map(([k, f]) => `${k}:${gap}${f}`),
      gap,
    ),
  );
}

const BREAKS = ["cut", ",}", "'", "//", "bom", "tail", "nbsp"] as const;
function broken(text: string, n: number, how: (typeof BREAKS)[number]): string {
  if (how === "cut") return text.slice(0, n % Math.max(1, text.length));
  if (how === "bom") return `\ufeff${text}`;
  if (how === "tail") return `${text} x`;
  if (how === "nbsp") return `\u00a0${text}`;
  if (how === "'") return text.replaceAll('"', "'");
  if (how === "//") return `// state\n${text}`;
  return text.replace(/}$/, ",}");
}

const payloadArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 10, arbitrary: stateText(false) },
  { weight: 6, arbitrary: stateText(true) },
  { weight: 2, arbitrary: valueText },
  {
    weight: 2,
    arbitrary: fc
      .tuple(stateText(false), fc.nat(), fc.constantFrom(...BREAKS))
      .map(([text, n, how]) => broken(text, n, how)),
  },
);

const requestArb: fc.Arbitrary<Request> = fc.record({
  payload: payloadArb,
  names: fc.array(nameArb, { maxLength: 3 }),
  requires: fc.array(nameArb, { maxLength: 4 }),
  mutating: fc.boolean().chain((b) => (b ? fc.constant(true) : fc.boolean())),
  args: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 2 }).map((a) => JSON.parse(JSON.stringify(a))),
  async: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
});

const twin = twinFolder();
const python = new PythonLines(twin.dir, DRIVER);
afterAll(() => {
  python.close();
  twin.remove();
});

describe("the TypeScript gate and its Python twin", () => {
  it("agree on the article's cases and on what JavaScript refuses as JSON", async () => {
    const cases: Request[] = [
      '{"user_id": {"status": "known", "value": "u_1"}, "action_date": {"status": "unknown"}}',
      '{"user_id": {"status": "known", "value": 0}, "action_date": {"status": "conflict", "value": "Tue"}}',
      '{"user_id": {"status": "known", "value": NaN}}',
      '{"user_id": {"status": "known", "value": Infinity}}',
      "NaN",
      "-Infinity",
      '{"user_id": {"status": "known", "value": 1e400}}',
      '{"b": {"status": "maybe"}, "1": {"status": "nope"}}',
    ].map((payload) => ({
      payload,
      names: ["timezone"],
      requires: ["user_id", "action_date"],
      mutating: true,
      args: [{ tz: "UTC" }],
      async: false,
    }));
    for (const req of cases) {
      const [ts, py] = [await typescriptAnswer(req), (await python.ask(req)) as Record<string, unknown>];
      expect(comparable(py), req.payload).toEqual(comparable(ts));
    }
    const nan = (await python.ask(cases[2])) as { parsed: { ok: boolean }; step: { row: string } };
    expect(nan.parsed.ok).toBe(false);
    expect(nan.step.row).toBe("unparsed");
    const big = (await python.ask(cases[6])) as { side_effect: { records: GateDecisionRecord[] } };
    expect(big.side_effect.records[0].world_state.user_id.value).toBe("Infinity");
  });

  it("agree on 10,000 generated world states and calls", async () => {
    const seen = { parsed: 0, unparsed: 0, allow: 0, block: 0, stop: 0 };
    await fc.assert(
      fc.asyncProperty(requestArb, async (req) => {
        const ts = await typescriptAnswer(req);
        const py = (await python.ask(req)) as Record<string, unknown>;
        expect(comparable(py)).toEqual(comparable(ts));
        const gate = (ts.step as { gate: { verdict: string; next: string } | null }).gate;
        seen[(ts.parsed as { ok: boolean }).ok ? "parsed" : "unparsed"]++;
        if (gate?.verdict === "allow") seen.allow++;
        if (gate?.verdict === "block") seen[gate.next === "stop" ? "stop" : "block"]++;
      }),
      { numRuns: 10_000 },
    );
    // The generators reach every branch, each often.
    console.log(seen);
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(500);
  }, 600_000);
});
