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
import { type GateRequest as Request, requestArb } from "./worldStateTexts";

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
    for (const n of Object.values(seen)) expect(n).toBeGreaterThan(500);
  }, 600_000);
});
