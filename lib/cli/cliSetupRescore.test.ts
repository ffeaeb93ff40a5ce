import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client";
import { queueDashboardRescores, queueRescore } from "../../db/queries/rescore/jobs";
import { projectRoot } from "../root";
import { cliSandbox } from "./testCli";

const box = cliSandbox("setup-rescore");
afterAll(box.cleanup);

describe("assumeprobe setup on a database from before the flags", () => {
  it("re-scores its runs once, saying what moved, then never again", async () => {
    box.file(
      "cli.db",
      gunzipSync(readFileSync(join(projectRoot(), "fixtures", "testdata", "pre-flags.db.gz"))),
    );
    const first = await box.run(["setup"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.lines[0]).toBe(
      "assumeprobe: re-scoring 3 runs stored by an earlier version (once; stopped, it resumes here)",
    );
    // A fenced call in an explicit response's text is recovered now (flag fenced), so one trace
    // that was unparsed_call before reads as that call.
    expect(first.lines[1]).toMatch(
      /^ {2}fixtures-flags: 29 traces, 19 changed: \+unparsed_call 6, .*\+fenced 2/,
    );
    // Its three broken fenced blocks say "timezone" only inside the fence, which no longer counts
    // toward ask terms: ASK becomes DRIFT, against the label the seed's runner recorded.
    expect(first.lines[3]).toBe(
      "  plover-lite-2/nightly-2026-11-29: 150 traces, 3 changed: +recorded_mismatch 3, +unparsed_call 3, timezone ASK→DRIFT 3, severity ASK→DRIFT 1",
    );
    const db = new Database(box.dbPath, { readonly: true });
    try {
      expect(db.prepare("SELECT DISTINCT status FROM rescores").pluck().all()).toEqual(["done"]);
      expect(db.prepare("SELECT count(*) FROM trace_tags WHERE sig = -1").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
    const second = await box.run(["setup"]);
    expect(second.lines).toEqual([`assumeprobe: database ready at ${box.dbPath}`]);
  });

  it("leaves a re-score the dashboard started to the dashboard's server: it does not hold up its start", async () => {
    const db = openDb(box.dbPath);
    let dashboard: number;
    let upgrade: number;
    try {
      const runs = db.sqlite.prepare("SELECT id FROM runs ORDER BY id").pluck().all() as number[];
      // A dashboard re-score killed part way (its server stopped), and a one-time upgrade re-score.
      [dashboard] = queueDashboardRescores(db, [runs[0]], "ana");
      db.sqlite
        .prepare("UPDATE rescores SET scanned = 1, lease_owner = 'gone:1:ab', lease_until = ? WHERE id = ?")
        .run(Date.now() + 60_000, dashboard);
      upgrade = queueRescore(db, runs[1], "upgrade");
    } finally {
      db.sqlite.close();
    }
    const r = await box.run(["setup"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.lines[0]).toBe(
      "assumeprobe: re-scoring 1 run stored by an earlier version (once; stopped, it resumes here)",
    );
    const ro = new Database(box.dbPath, { readonly: true });
    try {
      const status = ro.prepare("SELECT status FROM rescores WHERE id = ?").pluck();
      expect(status.get(upgrade)).toBe("done");
      expect(status.get(dashboard)).toBe("pending");
    } finally {
      ro.close();
    }
  });
});
