import { describe, expect, it } from "vitest";
import { answerRecord, defaultRunName, runUrl, sampleId, sampleWidth } from "./record";
import { chooseRun, pendingSamples, readResume } from "./resume";

const rec = (id: string, run = "r1", model = "m") => JSON.stringify({ id, run, model, raw: {} });

describe("readResume", () => {
  it("collects (run, id) pairs per run, with each run's model", async () => {
    const s = await readResume([`${rec("p#0001")}\n${rec("p#0002")}\n`, `${rec("p#0001", "r2", "other")}\n`]);
    expect([...s.runs.keys()]).toEqual(["r1", "r2"]);
    expect([...(s.runs.get("r1")?.ids ?? [])]).toEqual(["p#0001", "p#0002"]);
    expect(s.runs.get("r2")?.model).toBe("other");
    expect([s.lastRun, s.needsNewline, s.cutLine]).toEqual(["r2", false, null]);
  });

  it("a cut-off last line is not done, and needs a newline before the next record", async () => {
    const s = await readResume([`${rec("p#0001")}\n${rec("p#0002").slice(0, 20)}`]);
    expect([...(s.runs.get("r1")?.ids ?? [])]).toEqual(["p#0001"]);
    expect([s.needsNewline, s.cutLine]).toEqual([true, 2]);
  });

  it("a whole last record without its newline is done, and still gets a newline", async () => {
    const s = await readResume([`${rec("p#0001")}\n${rec("p#0002")}`]);
    expect(s.runs.get("r1")?.ids.has("p#0002")).toBe(true);
    expect([s.needsNewline, s.cutLine]).toEqual([true, null]);
  });

  it("reads lines split across chunks and multi-byte characters split across them", async () => {
    const text = Buffer.from(`${rec("p#0001", "ré-1")}\n${rec("p#0002", "ré-1")}\n`);
    const chunks = [...Array(text.length).keys()].map((i) => text.subarray(i, i + 1));
    async function* gen() {
      yield* chunks;
    }
    const s = await readResume(gen());
    expect([...(s.runs.get("ré-1")?.ids ?? [])]).toEqual(["p#0001", "p#0002"]);
  });

  it("skips blank lines and lines that are not records", async () => {
    const s = await readResume([`\n{not json\n[1]\n{"id":"x"}\n${rec("p#0001")}\n`]);
    expect([...s.runs.keys()]).toEqual(["r1"]);
  });
});

describe("chooseRun", () => {
  it("continues --run, else the file's last run, else a new one", async () => {
    const s = await readResume([`${rec("p#0001", "a")}\n${rec("p#0001", "b")}\n`]);
    expect(chooseRun(s, { model: "m", file: "f" })).toMatchObject({ ok: true, run: "b" });
    expect(chooseRun(s, { run: "a", model: "m", file: "f" })).toMatchObject({ ok: true, run: "a" });
    expect(chooseRun(s, { run: "new", model: "m", file: "f" })).toMatchObject({ ok: true, run: "new" });
    const empty = await readResume([]);
    expect(chooseRun(empty, { model: "m", file: "f" })).toMatchObject({ ok: true, run: null });
  });
  it("refuses to continue a run asked of another model", async () => {
    const s = await readResume([`${rec("p#0001", "a", "gpt-x")}\n`]);
    const r = chooseRun(s, { model: "qwen", file: "out.jsonl" });
    expect(r).toEqual({
      ok: false,
      error:
        'out.jsonl: run "a" was asked of model "gpt-x", not "qwen"; resume it with --model gpt-x, or start another run with --run',
    });
  });
});

describe("pendingSamples", () => {
  it("asks each (probe, sample) the file does not hold, in order", () => {
    const { pending, skipped } = pendingSamples(["a", "b"], 3, 4, new Set(["a#0002", "b#0001", "zz#0001"]));
    expect(pending.map((p) => p.id)).toEqual(["a#0001", "a#0003", "b#0002", "b#0003"]);
    expect(skipped).toBe(2);
  });
  it("matches sample numbers, whatever their width", () => {
    const { pending } = pendingSamples(["a"], 10_000, 5, new Set(["a#0001", "a#9999"]));
    expect(pending[0].id).toBe("a#00002");
    expect(pending).toHaveLength(9_998);
  });
});

describe("records and names", () => {
  it("ids are PROBE#NNNN with four digits, more when needed", () => {
    expect(sampleId("schedule_window", 7)).toBe("schedule_window#0007");
    expect([sampleWidth(6), sampleWidth(9_999), sampleWidth(10_000)]).toEqual([4, 4, 5]);
    expect(sampleId("p", 12, sampleWidth(10_000))).toBe("p#00012");
  });
  it("the default run is MODEL/run-YYYYMMDD-HHMMSS in UTC", () => {
    expect(defaultRunName("qwen2.5", new Date("2026-11-29T10:04:05.678Z"))).toBe(
      "qwen2.5/run-20261129-100405",
    );
  });
  it("a record carries raw and no response, with the fields DESIGN.md lists", () => {
    const r = answerRecord({
      id: "p#0001",
      run: "r",
      model: "m",
      probe: "p",
      raw: { object: "chat.completion" },
      startedAt: new Date("2026-11-29T10:00:00Z"),
      latencyMs: 811.6,
      params: { temperature: 0 },
    });
    expect(JSON.stringify(r)).toBe(
      '{"schema":"assumeprobe/trace@1","id":"p#0001","run":"r","model":"m","probe":"p","raw":{"object":"chat.completion"},"started_at":"2026-11-29T10:00:00.000Z","latency_ms":812,"params":{"temperature":0}}',
    );
  });
  it("the run's link comes from HOST and PORT", () => {
    expect(runUrl("qwen/run-1", {})).toBe("http://127.0.0.1:3000/runs/qwen%2Frun-1");
    expect(runUrl("r", { HOST: "0.0.0.0", PORT: "8080" })).toBe("http://127.0.0.1:8080/runs/r");
    expect(runUrl("r", { HOST: "::1" })).toBe("http://[::1]:3000/runs/r");
    expect(runUrl("r", { HOST: "dash.internal" })).toBe("http://dash.internal:3000/runs/r");
  });
});
