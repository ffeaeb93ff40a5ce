import { afterAll, describe, expect, it } from "vitest";
import { MAX_SIGNED_TRACE_ID, packTagRow, tagSignature } from "../../lib/ingest/tagSignature";
import { parseTraceFilter } from "../../lib/traceFilter";
import { ingestText, tempDb, traceLine } from "../testing/ingest";
import { listTraces } from "./traceList";

const { db, cleanup } = tempDb("tag-rows");
afterAll(cleanup);

/** Each trace's tag rows: their signatures, and the signature of the tag names. */
function tagRows(runId: number) {
  return db.sqlite
    .prepare(
      `SELECT x.trace_id AS id, json_group_array(x.sig) AS sigs, json_group_array(n.name) AS names
        FROM trace_tags x JOIN tag_names n ON n.id = x.tag_id WHERE x.run_id = ? GROUP BY x.trace_id`,
    )
    .all(runId)
    .map((r) => {
      const row = r as { id: number; sigs: string; names: string };
      return {
        id: row.id,
        sigs: [...new Set(JSON.parse(row.sigs))],
        want: tagSignature(JSON.parse(row.names)),
      };
    });
}

const runIdOf = (name: string) =>
  db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(name) as number;

describe("packTagRow", () => {
  it("packs a trace id and a 32-bit signature into one integer, up to the largest id that fits", () => {
    expect(packTagRow(1, 0)).toBe(String(2 ** 32));
    expect(packTagRow(5, 2 ** 32 - 1)).toBe(String(BigInt(5) * 2n ** 32n + 2n ** 32n - 1n));
    expect(BigInt(packTagRow(MAX_SIGNED_TRACE_ID, 2 ** 32 - 1))).toBe(2n ** 63n - 1n);
  });
});

describe("tag rows", () => {
  it("carry their trace's signature; past the largest packable id they keep -1 and still filter", async () => {
    const lines = [
      traceLine({ id: "a" }, { timezone: "UTC" }),
      traceLine({ id: "b", response: { text: "Which timezone?", tool_calls: [] } }),
      traceLine({ id: "c" }, { timezone: "Mars/Olympus" }),
    ];
    await ingestText(db, "small.jsonl", `${lines.join("\n")}\n`, { run: "small" });
    const small = tagRows(runIdOf("small"));
    expect(small).toHaveLength(3);
    for (const t of small) expect(t.sigs).toEqual([t.want]);

    // Move the last trace to the largest packable id: the next traces get ids past it.
    const last = db.sqlite.prepare("SELECT max(id) FROM traces").pluck().get() as number;
    db.sqlite.prepare("UPDATE traces SET id = ? WHERE id = ?").run(MAX_SIGNED_TRACE_ID, last);
    db.sqlite.prepare("UPDATE trace_tags SET trace_id = ? WHERE trace_id = ?").run(MAX_SIGNED_TRACE_ID, last);
    await ingestText(db, "big-ids.jsonl", `${lines.join("\n")}\n`, { run: "big-ids" });
    const big = tagRows(runIdOf("big-ids"));
    expect(big.map((t) => t.id)).toEqual([
      MAX_SIGNED_TRACE_ID + 1,
      MAX_SIGNED_TRACE_ID + 2,
      MAX_SIGNED_TRACE_ID + 3,
    ]);
    for (const t of big) expect(t.sigs).toEqual([-1]);
    // The same filter finds the same traces in both runs.
    const found = (run: string) =>
      listTraces(db, runIdOf(run), parseTraceFilter({ label: "INJECT", gate: "block" }), "timezone").rows.map(
        (r) => r.extId,
      );
    expect(found("small").length).toBeGreaterThan(0);
    expect(found("big-ids")).toEqual(found("small"));
  });
});
