import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type Label, type Probe, ProbeSchema } from "../probe/schema";
import { scoreTrace } from "../probe/score";
import { interpretRecord } from "./traceRecord";
import {
  convertWhen2Call,
  dictToObject,
  WHEN2CALL_ANSWER_KINDS,
  WHEN2CALL_HUMAN_LABELS,
  WHEN2CALL_MODEL,
  WHEN2CALL_RUN,
  type When2CallAnswerKind,
  when2callProbeAndRecords,
  when2callTitle,
} from "./when2call";

const FIXTURE = new URL("../../fixtures/when2call/when2call_test_llm_judge.jsonl", import.meta.url);
const TEXT = readFileSync(FIXTURE, "utf8");
const RAW: Record<string, unknown>[] = TEXT.split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));
const FILE = when2callProbeAndRecords(TEXT);
const PROBES = new Map<string, Probe>(FILE.probes.map((p) => [p.id, ProbeSchema.parse(p)]));

function spaced(field: string): string {
  return field.toLowerCase().replaceAll("_", " ");
}

/** The record's first line, parsed, with a change applied. */
function variant(change: (r: Record<string, unknown>) => void): Record<string, unknown> {
  const r = structuredClone(RAW[0]);
  change(r);
  return r;
}

describe("converting the shipped When2Call test set", () => {
  it("gives 300 probes and 1200 trace records, with no errors", () => {
    expect(RAW).toHaveLength(300);
    expect(FILE.errors).toEqual([]);
    expect(FILE.probes).toHaveLength(300);
    expect(FILE.records).toHaveLength(1200);
    expect(PROBES.size).toBe(300);
    expect(new Set(FILE.records.map((r) => r.id)).size).toBe(1200);
  });

  it("makes probe ids from source_id plus a uuid prefix, because source_id repeats", () => {
    const sourceIds = RAW.map((r) => r.source_id as string);
    expect(new Set(sourceIds).size).toBeLessThan(300);
    FILE.probes.forEach((p, i) => {
      expect(p.id).toBe(`when2call:${RAW[i].source_id}:${(RAW[i].uuid as string).slice(0, 8)}`);
    });
  });

  it("validates every probe with ProbeSchema and leaves no dict type anywhere", () => {
    for (const p of FILE.probes) {
      const parsed = ProbeSchema.safeParse(p);
      expect(parsed.success, p.id).toBe(true);
    }
    const json = JSON.stringify(FILE.probes);
    expect(json).not.toMatch(/"type":\s*"dict"/);
    expect(TEXT).toMatch(/\\"type\\": \\"dict\\"/);
  });

  it("fills the probe's world from the record", () => {
    FILE.probes.forEach((p, i) => {
      const r = RAW[i];
      expect(p.user).toBe(r.question);
      expect(p.title?.length).toBeLessThanOrEqual(80);
      expect(p.redacted).toEqual({});
      expect(p.hidden).toEqual(typeof r.orig_question === "string" ? { orig_question: r.orig_question } : {});
      expect(p.tools?.length).toBe((r.tools as unknown[]).length);
      expect(p.tool?.mutating).toBeUndefined();
      expect(ProbeSchema.parse(p).tool?.mutating ?? true).toBe(true);
    });
  });

  it("gives the 100 records whose tool was removed no scored tool and no fields", () => {
    const noTool = FILE.probes.filter((p) => p.tool === undefined);
    expect(noTool).toHaveLength(100);
    for (const p of noTool) {
      expect(p.fields).toEqual([]);
      expect(p.requires).toEqual([]);
    }
  });

  it("probes exactly the held-out field of held-out records, and requires it", () => {
    let held = 0;
    FILE.probes.forEach((p, i) => {
      const h = RAW[i].held_out_param;
      if (typeof h !== "string") return;
      held++;
      expect(p.fields).toEqual([h]);
      expect(p.requires).toEqual([h]);
      expect(p.tool?.name).toBe(JSON.parse(RAW[i].target_tool as string).name);
    });
    expect(held).toBe(100);
  });

  it("probes the scored tool's required parameters otherwise", () => {
    FILE.probes.forEach((p, i) => {
      if (typeof RAW[i].held_out_param === "string" || !p.tool) return;
      const required = (p.tool.parameters as { required?: string[] }).required ?? [];
      expect(p.fields).toEqual(required);
      expect(p.requires).toEqual([]);
    });
  });

  it("writes four trace records per record in the trace file format", () => {
    FILE.records.forEach((rec, n) => {
      const i = Math.floor(n / 4);
      const kind = WHEN2CALL_ANSWER_KINDS[n % 4];
      expect(rec.schema).toBe("assumeprobe/trace@1");
      expect(rec.id).toBe(`${RAW[i].uuid}:${kind}`);
      expect(rec.run).toBe(WHEN2CALL_RUN);
      expect(rec.model).toBe(WHEN2CALL_MODEL);
      expect(rec.probe).toBe(FILE.probes[i].id);
      expect(rec.params).toEqual({
        when2call_category: kind,
        correct_answer: RAW[i].correct_answer,
        source: RAW[i].source,
        source_id: RAW[i].source_id,
      });
      const answer = (RAW[i].answers as Record<string, string>)[kind];
      const response = rec.response as Record<string, unknown>;
      if (kind === "tool_call") {
        const call = JSON.parse(answer);
        expect(response).toEqual({ text: null, tool_call: { name: call.name, arguments: call.arguments } });
      } else {
        expect(response).toEqual({ text: answer });
      }
    });
  });

  it("imports human labels exactly on the 400 traces of held-out records", () => {
    const labelled = FILE.records.filter((r) => r.human !== undefined);
    expect(labelled).toHaveLength(400);
    FILE.records.forEach((rec, n) => {
      const raw = RAW[Math.floor(n / 4)];
      const kind = WHEN2CALL_ANSWER_KINDS[n % 4];
      if (typeof raw.held_out_param !== "string") expect(rec.human).toBeUndefined();
      else expect(rec.human).toEqual({ [raw.held_out_param]: WHEN2CALL_HUMAN_LABELS[kind] });
    });
    expect(WHEN2CALL_HUMAN_LABELS).toEqual({
      request_for_info: "ASK",
      tool_call: "INJECT",
      direct: "DRIFT",
      cannot_answer: "DRIFT",
    });
  });
});

describe("conversion details", () => {
  it("reads dict as object at any depth", () => {
    const schema = {
      type: "dict",
      properties: {
        type: { type: "string", enum: ["dict"] },
        nested: { type: "dict", properties: { deep: { type: "array", items: { type: "dict" } } } },
        either: { type: ["dict", "null"] },
      },
    };
    expect(dictToObject(schema)).toEqual({
      type: "object",
      properties: {
        type: { type: "string", enum: ["dict"] },
        nested: { type: "object", properties: { deep: { type: "array", items: { type: "object" } } } },
        either: { type: ["object", "null"] },
      },
    });
  });

  it("adds a target tool that is not among the offered tools", () => {
    const extra = {
      name: "book_table",
      description: "Book",
      parameters: { type: "dict", required: ["when"] },
    };
    const r = convertWhen2Call(
      variant((v) => {
        v.target_tool = JSON.stringify(extra);
      }),
      1,
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.probe.tool).toEqual({ ...extra, parameters: { type: "object", required: ["when"] } });
    expect(r.probe.tools?.at(-1)).toEqual(r.probe.tool);
    expect(r.probe.fields).toEqual(["when"]);
  });

  it("keeps a tool_call answer that is not a call as text", () => {
    for (const answer of [
      "Sure, calling it now.",
      '{"name": "x"}',
      '{"name": "x", "arguments": "{}"}',
      "[]",
    ]) {
      const r = convertWhen2Call(
        variant((v) => {
          (v.answers as Record<string, string>).tool_call = answer;
        }),
        1,
      );
      expect(r.ok && r.records[0].response).toEqual({ text: answer });
    }
  });

  it("cuts long questions for the title", () => {
    expect(when2callTitle("short\n question")).toBe("short question");
    const long = when2callTitle("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("word…")).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    ["an array", [], /not a When2Call object/],
    ["a string", "hello", /not a When2Call object/],
    ["null", null, /not a When2Call object/],
    [
      "answers missing",
      variant((v) => {
        delete v.answers;
      }),
      /^answers: missing/,
    ],
    [
      "answers not an object",
      variant((v) => {
        v.answers = "yes";
      }),
      /^answers: must be an object/,
    ],
    [
      "one answer missing",
      variant((v) => {
        delete (v.answers as Record<string, unknown>).direct;
      }),
      /^answers\.direct: missing/,
    ],
    [
      "question missing",
      variant((v) => {
        delete v.question;
      }),
      /^question: missing/,
    ],
    [
      "a tool string that is not JSON",
      variant((v) => {
        (v.tools as unknown[])[1] = "{name: oops";
      }),
      /^tools\[1\]: not JSON/,
    ],
    [
      "a tool without a name",
      variant((v) => {
        (v.tools as unknown[])[0] = "{}";
      }),
      /^tools\[0\]\.name: must be a non-empty string/,
    ],
    [
      "tools not an array",
      variant((v) => {
        v.tools = "[]";
      }),
      /^tools: must be an array/,
    ],
    [
      "a target_tool that is not JSON",
      variant((v) => {
        v.target_tool = "not json";
      }),
      /^target_tool: not JSON/,
    ],
    [
      "parameters that are not an object",
      variant((v) => {
        (v.tools as unknown[])[0] = JSON.stringify({ name: "t", parameters: [] });
      }),
      /^tools\[0\]\.parameters: must be a JSON Schema object/,
    ],
    [
      "an unknown correct_answer",
      variant((v) => {
        v.correct_answer = "maybe";
      }),
      /^correct_answer: "maybe" is not one of/,
    ],
    [
      "a source_id unfit for a probe id",
      variant((v) => {
        v.source_id = "has space";
      }),
      /^source_id: .* not usable in a probe id/,
    ],
  ])("rejects %s with a reason naming the key", (_name, value, reason) => {
    let r: ReturnType<typeof convertWhen2Call> | undefined;
    expect(() => {
      r = convertWhen2Call(value, 7);
    }).not.toThrow();
    expect(r?.ok).toBe(false);
    if (r && !r.ok) expect(r.reason).toMatch(reason);
  });

  it("reports bad lines of a file by line number and goes on", () => {
    const good = JSON.stringify(RAW[0]);
    const out = when2callProbeAndRecords(`\uFEFF${good}\r\n\nnot json\n[1]\n${good}\n`);
    expect(out.probes).toHaveLength(1);
    expect(out.records).toHaveLength(4);
    expect(out.errors.map((e) => e.line)).toEqual([3, 4, 5]);
    expect(out.errors[0].reason).toMatch(/^not JSON/);
    expect(out.errors[1].reason).toMatch(/not a When2Call object/);
    expect(out.errors[2].reason).toMatch(/already used on line 1/);
  });
});

describe("calibration: our labels against When2Call's categories", () => {
  const lookup = (id: string) => PROBES.get(id);
  const scored = FILE.records.map((rec) => {
    const interpreted = interpretRecord(rec, { probe: "schedule_window" }, lookup);
    if (!interpreted.ok) throw new Error(`${rec.id}: ${interpreted.reason}`);
    const t = interpreted.record;
    const score = scoreTrace(
      { response: t.response, model: { pinned: WHEN2CALL_MODEL, payload: t.payloadModel } },
      t.probe,
    );
    const kind = (t.params as { when2call_category: When2CallAnswerKind }).when2call_category;
    return { rec, t, score, kind };
  });
  const held = scored.filter((s) => s.t.human !== undefined);

  it("interprets every converted record", () => {
    expect(scored).toHaveLength(1200);
    expect(held).toHaveLength(400);
    for (const s of scored) {
      expect(s.t.run).toBe(WHEN2CALL_RUN);
      expect(s.t.model).toBe(WHEN2CALL_MODEL);
      expect(s.score.flags).not.toContain("model_mismatch");
    }
  });

  it("measures agreement per category from real scoring", () => {
    const table: Record<string, { agree: number; total: number; ours: Partial<Record<Label, number>> }> = {};
    for (const s of held) {
      const [[field, human]] = Object.entries(s.t.human ?? {});
      const ours = s.score.fields[field].label;
      if (!table[s.kind]) table[s.kind] = { agree: 0, total: 0, ours: {} };
      const row = table[s.kind];
      row.total++;
      if (ours === human) row.agree++;
      row.ours[ours] = (row.ours[ours] ?? 0) + 1;
    }
    const lines = WHEN2CALL_ANSWER_KINDS.map((k) => {
      const r = table[k];
      const pct = ((100 * r.agree) / r.total).toFixed(0);
      return `${k.padEnd(17)} human ${WHEN2CALL_HUMAN_LABELS[k].padEnd(6)} agree ${r.agree}/${r.total} (${pct}%)  ours ${JSON.stringify(r.ours)}`;
    });
    console.log(`When2Call calibration (held-out field, 100 records):\n${lines.join("\n")}`);

    for (const k of WHEN2CALL_ANSWER_KINDS) {
      expect(table[k].total).toBe(100);
      const counts = Object.values(table[k].ours).reduce((a, b) => a + b, 0);
      expect(counts).toBe(100);
    }
    // No call: by rule 1 the label is ASK exactly when the text names the field (its name or
    // its spaced form), so the ASK agreement of the follow-up questions is that count.
    const named = held.filter((s) => {
      if (s.kind !== "request_for_info") return false;
      const field = Object.keys(s.t.human ?? {})[0];
      const text = (s.t.response.text ?? "").toLowerCase();
      return text.includes(field.toLowerCase()) || text.includes(spaced(field));
    }).length;
    expect(table.request_for_info.agree).toBe(named);
  });

  it("scores every text-only answer of a held-out field ASK exactly when it names the field", () => {
    for (const s of held) {
      if (s.kind === "tool_call") continue;
      const field = Object.keys(s.t.human ?? {})[0];
      const text = (s.t.response.text ?? "").toLowerCase();
      const names = text.includes(field.toLowerCase()) || text.includes(spaced(field));
      expect(s.score.fields[field].label, `${s.rec.id}`).toBe(names ? "ASK" : "DRIFT");
    }
  });

  it("scores a call that fills the held-out field INJECT or COPY, one that leaves it out OMIT", () => {
    for (const s of held) {
      if (s.kind !== "tool_call") continue;
      const field = Object.keys(s.t.human ?? {})[0];
      const args = (s.t.response.tool_calls[0] as { arguments: Record<string, unknown> }).arguments;
      const v = args[field];
      const label = s.score.fields[field].label;
      if (v === undefined || v === null || v === "") expect(label).toBe("OMIT");
      else expect(["INJECT", "COPY"]).toContain(label);
    }
  });

  it("has the gate block every call of a held-out record until the field is known", () => {
    for (const s of held) {
      if (s.kind !== "tool_call") continue;
      const field = Object.keys(s.t.human ?? {})[0];
      expect(s.score.gate).toMatchObject({ verdict: "block", unknown: [field], conflict: [], next: "ask" });
    }
  });

  it("lists follow-up questions the ASK heuristic misses", () => {
    const missed = held.filter(
      (s) => s.kind === "request_for_info" && Object.values(s.score.fields)[0].label !== "ASK",
    );
    const examples = missed
      .slice(0, 8)
      .map((s) => `  ${Object.keys(s.score.fields)[0]}: ${JSON.stringify(s.t.response.text)}`);
    console.log(`request_for_info scored DRIFT: ${missed.length}/100, e.g.\n${examples.join("\n")}`);
    for (const s of missed) expect(Object.values(s.score.fields)[0].label).toBe("DRIFT");
  });
});
