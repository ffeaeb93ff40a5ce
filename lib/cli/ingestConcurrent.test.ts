import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { inconsistencies } from "../../db/testing/ingest";
import { ARGS, cliSandbox } from "./testCli";

const box = cliSandbox("concurrent");
afterAll(box.cleanup);

/** Records of one run; with `inlineProbes`, each record carries one of that many inline probe versions. */
function records(run: string, n: number, inlineProbes = 0): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const rec: Record<string, unknown> = {
      id: `${run}-${i}`,
      run,
      model: "m",
      response: {
        tool_call: { name: "schedule_window", arguments: { ...ARGS, timezone: i % 2 ? "UTC" : "x" } },
      },
    };
    if (inlineProbes > 0) {
      const v = i % inlineProbes;
      rec.probe = {
        id: `inline_${run}`,
        system: "s",
        user: `Book it (${v})`,
        hidden: { timezone: "Asia/Tokyo" },
        redacted: {},
        tool: {
          name: "schedule_window",
          parameters: { type: "object", properties: { timezone: { type: "string" } } },
        },
      };
    }
    lines.push(JSON.stringify(rec));
  }
  return `${lines.join("\n")}\n`;
}

const storedIn = (run: string) => {
  const db = new Database(box.dbPath, { readonly: true });
  try {
    return db
      .prepare("SELECT count(*) FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?")
      .pluck()
      .get(run) as number;
  } finally {
    db.close();
  }
};

it("two CLI ingests at once, one of them with inline probes, both store every record", async () => {
  expect((await box.run(["setup"])).code).toBe(0);
  const N = 6000;
  // Inline probes change every few records: the main connection stores probe versions while the
  // writer thread writes batches, and the two ingests write into one database at the same time.
  const a = box.file("a.jsonl", records("conc-a", N, 40));
  const b = box.file("b.jsonl", records("conc-b", N));
  const c = box.file("c.jsonl", records("conc-c", N));
  const results = await Promise.all([
    box.run(["ingest", a, "--json", "--no-progress"]),
    box.run(["ingest", b, "--json", "--no-progress"]),
    box.run(["ingest", c, "--json", "--no-progress"], undefined),
  ]);
  for (const r of results) {
    expect(r.stderr).not.toContain("locked");
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.lines.at(-1) ?? "")).toMatchObject({ records: N, ingested: N, rejected: 0 });
  }
  expect([storedIn("conc-a"), storedIn("conc-b"), storedIn("conc-c")]).toEqual([N, N, N]);
  const db = new Database(box.dbPath, { readonly: true });
  expect(inconsistencies(db)).toEqual([]);
  db.close();
}, 300_000);
