import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerRecord, dashboardLine, defaultRunName, runUrl, sampleId, sampleWidth } from "./record";
import { chooseRun, cutTornLine, pendingSamples, readResume, readResumeFile } from "./resume";

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

  it("finds where a torn last line starts, in bytes, across chunks and multi-byte characters", async () => {
    const whole = `${rec("p#0001", "ré-1")}\n${rec("p#0002", "ré-1")}\n`;
    const torn = rec("p#0003", "ré-1").slice(0, 30);
    const text = Buffer.from(whole + torn);
    for (const chunks of [
      [whole + torn],
      [text],
      [...Array(text.length).keys()].map((i) => text.subarray(i, i + 1)),
    ]) {
      const s = await readResume(chunks as Iterable<string>);
      expect(s.cut).toEqual({ at: Buffer.byteLength(whole), size: text.length });
    }
    expect((await readResume([whole])).cut).toBeNull();
  });

  it("cuts a torn last line from the file in one truncate, and refuses a file that changed since", async () => {
    const dir = mkdtempSync(join(tmpdir(), "resume-cut-"));
    try {
      const file = join(dir, "out.jsonl");
      const whole = `${rec("p#0001")}\n${rec("p#0002")}\n`;
      writeFileSync(file, `${whole}${rec("p#0003").slice(0, 25)}`);
      const s = await readResumeFile(file);
      expect(s.cutLine).toBe(3);
      expect(cutTornLine(file, s.cut as { at: number; size: number })).toEqual({ ok: true });
      expect(readFileSync(file, "utf8")).toBe(whole);
      const again = await readResumeFile(file);
      expect([again.cutLine, again.needsNewline]).toEqual([null, false]);

      writeFileSync(file, `${whole}{"id":`);
      const t = await readResumeFile(file);
      appendFileSync(file, '"p#0004"');
      const r = cutTornLine(file, t.cut as { at: number; size: number });
      expect(r.ok).toBe(false);
      expect(readFileSync(file, "utf8")).toBe(`${whole}{"id":"p#0004"`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
  it("the run's link comes from ASSUMEPROBE_URL, else HOST and PORT, else there is none", () => {
    expect(runUrl("qwen/run-1", { PORT: "3000" })).toBe("http://127.0.0.1:3000/runs/qwen%2Frun-1");
    expect(runUrl("r", { HOST: "0.0.0.0", PORT: "8080" })).toBe("http://127.0.0.1:8080/runs/r");
    expect(runUrl("r", { HOST: "::1", PORT: "3001" })).toBe("http://[::1]:3001/runs/r");
    expect(runUrl("r", { HOST: "dash.internal", PORT: "80" })).toBe("http://dash.internal:80/runs/r");
    expect(runUrl("a/b", { ASSUMEPROBE_URL: "https://dash.example/probe/", PORT: "1" })).toBe(
      "https://dash.example/probe/runs/a%2Fb",
    );
    // No port named: no guessed link, the path alone.
    for (const env of [{}, { HOST: "dash.internal" }, { PORT: " " }, { ASSUMEPROBE_URL: "not a url" }]) {
      expect(runUrl("r", env)).toBeNull();
      expect(dashboardLine("r", env)).toBe("on the dashboard at /runs/r (set ASSUMEPROBE_URL for a link)");
    }
    expect(dashboardLine("r", { PORT: "8080" })).toBe("dashboard: http://127.0.0.1:8080/runs/r");
  });
});
