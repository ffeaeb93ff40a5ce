import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliSandbox, jsonl } from "./testCli";

const box = cliSandbox("cli-agreement");
afterAll(box.cleanup);
// Each test spawns the CLI (tsx compiles it on start): slow on a loaded machine.
const SLOW = { timeout: 120_000 };

// Wikipedia, "Cohen's kappa", worked example: yes/yes 20, yes/no 5, no/yes 10, no/no 15 → 0.4.
const TABLE: [string, string, number][] = [
  ["ASK", "ASK", 20],
  ["ASK", "DRIFT", 5],
  ["DRIFT", "ASK", 10],
  ["DRIFT", "DRIFT", 15],
];

beforeAll(async () => {
  const lines = Array.from({ length: 50 }, (_, i) => ({
    id: `t${i}`,
    run: "agree",
    model: "m",
    response: { text: "Which timezone should I use?" },
  }));
  const ing = await box.run(["ingest", box.file("a.jsonl", jsonl(lines)), "--json", "--no-progress"]);
  expect(ing.code).toBe(0);
}, 180_000);

/** Blind reviews by ann and bob as the table says, one trace per field. */
function seedBlind() {
  const db = new Database(box.dbPath);
  try {
    const ids = db.prepare("SELECT id FROM traces ORDER BY id").pluck().all() as number[];
    const add = db.prepare(
      "INSERT INTO reviews (trace_id, field, label, reviewer, kind) VALUES (?, 'timezone', ?, ?, 'blind')",
    );
    let i = 0;
    db.transaction(() => {
      for (const [a, b, n] of TABLE)
        for (let k = 0; k < n; k++, i++) {
          add.run(ids[i], a, "ann");
          add.run(ids[i], b, "bob");
        }
    })();
  } finally {
    db.close();
  }
}

describe("assumeprobe agreement", () => {
  it(
    "says there is nothing yet before any blind review, and refuses an unknown run or probe (exit 2)",
    SLOW,
    async () => {
      const none = await box.run(["agreement"]);
      expect(none.code).toBe(0);
      expect(none.stdout).toMatch(/No field has two blind reviews yet/);
      const run = await box.run(["agreement", "--run", "nope"]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/--run: there is no run named "nope"/);
      const probe = await box.run(["agreement", "--probe", "nope"]);
      expect(probe.code).toBe(2);
      expect(probe.stderr).toMatch(/--probe: there is no probe "nope"/);
      const bad = await box.run(["agreement", "--bogus"]);
      expect(bad.code).toBe(2);
    },
  );

  it(
    "prints kappa per pair with its count and interval, alpha, per reviewer and label pairs",
    SLOW,
    async () => {
      seedBlind();
      const json = await box.run(["agreement", "--run", "agree", "--probe", "schedule_window", "--json"]);
      expect(json.code).toBe(0);
      const f = JSON.parse(json.stdout);
      expect(f.scope).toEqual({ run: "agree", probe: "schedule_window" });
      expect(f.fields).toBe(50);
      expect(f.pairs).toHaveLength(1);
      expect(f.pairs[0]).toMatchObject({ a: "ann", b: "bob", fields: 50, agree: 35 });
      expect(f.pairs[0].kappa).toBeCloseTo(0.4, 12);
      expect(f.pairs[0].low).toBeLessThan(0.4);
      expect(f.pairs[0].high).toBeGreaterThan(0.4);
      expect(f.alpha.fields).toBe(50);
      expect(f.per_reviewer.map((r: { reviewer: string; agree: number }) => [r.reviewer, r.agree])).toEqual([
        ["ann", 35],
        ["bob", 35],
      ]);
      expect(f.label_pairs[0]).toEqual({ a: "ASK", b: "DRIFT", n: 15 });

      const text = await box.run(["agreement"]);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/50 fields with two labels or more, 2 reviewers/);
      expect(text.stdout).toMatch(/ann · bob\s+50\s+70%\s+0\.40\s+0\.\d\d–0\.\d\d/);
      expect(text.stdout).toMatch(/Krippendorff's alpha 0\.\d\d \(95% 0\.\d\d–0\.\d\d\)/);
      expect(text.stdout).toMatch(/ASK against DRIFT\s+15/);

      const other = await box.run(["agreement", "--probe", "deploy_service"]);
      expect(other.code).toBe(0);
      expect(other.stdout).toMatch(/No field in this scope has two blind labels yet/);
    },
  );
});
