import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { openDb } from "../db/client";
import { writeReviews } from "../db/queries/reviews";
import { writeSync } from "../db/write";
import type { Label } from "../lib/probe/schema";
import { actionIds, seededDatabase } from "./lib/seeded";
import {
  actionResult,
  BIG_RUN,
  benchPort,
  build,
  callAction as callActionAs,
  loopDelay,
  PAGE_BENCH_OPTIONS,
  startServer,
  time,
} from "./lib/server";
import { ensureCliBundle, fmt, load, loadIsHigh, median, percentile } from "./lib/util";

const { values } = parseArgs({
  options: { ...PAGE_BENCH_OPTIONS, bulk: { type: "string", default: "100000" } },
});
const N = Number(values.n);
const REQUESTS = Number(values.requests);
const BULK = Number(values.bulk);
const RUN = BIG_RUN;

const SEED_REVIEWER = "bench-seed";
const COOKIE = "assumeprobe_reviewer=bench";
const callAction = (base: string, page: string, id: string, arg: unknown) =>
  callActionAs(base, page, id, arg, COOKIE);

/**
 * The label whose unreviewed timezone fields the bulk relabel takes: the commonest one whose
 * fields can be reviewed down to exactly BULK within the seed's 10%.
 */
function bulkLabel(db: Database.Database, runId: number): { label: Label; n: number } {
  const rows = db
    .prepare(
      `SELECT tn.name AS tag, rc.n AS n FROM run_counts rc JOIN tag_names tn ON tn.id = rc.tag_id
       WHERE rc.run_id = ? AND tn.name IN ('l:timezone=DRIFT', 'l:timezone=OMIT', 'l:timezone=ASK', 'l:timezone=INJECT')
       ORDER BY rc.n DESC`,
    )
    .all(runId) as { tag: string; n: number }[];
  const fits = rows.find((r) => r.n >= BULK && r.n - BULK <= Math.floor(N / 10));
  if (!fits) throw new Error(`no label has between ${BULK} and ${BULK + N / 10} timezone fields`);
  return { label: fits.tag.split("=")[1] as Label, n: fits.n };
}

/**
 * Reviews 10% of the run's timezone fields (N / 10) through the write path, leaving exactly BULK
 * fields of the bulk label unreviewed. Labels alternate so reviews both correct and confirm ours.
 */
function seedReviews(path: string): void {
  const db = openDb(path);
  try {
    const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(RUN) as number;
    const target = Math.floor(N / 10);
    const { label, n } = bulkLabel(db.sqlite, runId);
    const onBulk = n - BULK;
    if (onBulk < 0 || onBulk > target)
      throw new Error(`label ${label} has ${n} fields: cannot leave ${BULK} unreviewed`);
    const ids = db.sqlite
      .prepare(
        "SELECT id, json_extract(labels, '$.timezone') AS label FROM traces WHERE run_id = ? ORDER BY id",
      )
      .all(runId) as { id: number; label: string }[];
    // Every k-th trace of the bulk label, and every m-th of the others, to the exact counts.
    const ofBulk = ids.filter((t) => t.label === label);
    const others = ids.filter((t) => t.label !== label);
    const pick = <T>(xs: T[], k: number) =>
      k <= 0
        ? []
        : xs.filter((_, i) => Math.floor((i * k) / xs.length) !== Math.floor(((i + 1) * k) / xs.length));
    const chosen = [...pick(ofBulk, onBulk), ...pick(others, target - onBulk)].sort((a, b) => a.id - b.id);
    const labels: Label[] = ["ASK", "DRIFT", "OMIT", "INJECT"];
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < chosen.length; i += 2000) {
      writeSync(db, () => {
        for (let j = i; j < Math.min(chosen.length, i + 2000); j++) {
          const t = chosen[j];
          // Two in three confirm ours; the rest correct it.
          const l =
            j % 3 === 2 ? labels[(labels.indexOf(t.label as Label) + 1) % labels.length] : (t.label as Label);
          const r = writeReviews(db, {
            traceId: t.id,
            reviewer: SEED_REVIEWER,
            items: [
              { field: "timezone", label: (labels as string[]).includes(t.label) ? l : "ASK", base: null },
            ],
          });
          if (!r.ok) throw new Error(`seed: trace ${t.id} already reviewed`);
        }
      });
    }
    const s = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `seeded ${fmt(chosen.length)} reviews (10% of the fields) through writeReviews in ${fmt(s, 1)} s (${fmt((s * 1e6) / chosen.length)} µs each, ${fmt((cpu.user + cpu.system) / chosen.length)} µs of CPU); ${fmt(BULK)} ${label} fields left unreviewed  [${load()}]`,
    );
    db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.sqlite.close();
  }
}

const row = (name: string, xs: number[], target?: number) => {
  const p95 = percentile(xs, 95);
  const verdict = target === undefined ? "" : `  <${target} ${p95 < target ? "ok " : "MISS"}`;
  return `${name.padEnd(46)} ${fmt(median(xs), 1).padStart(8)} ${fmt(p95, 1).padStart(8)} ${fmt(Math.max(...xs), 1).padStart(8)}${verdict}  ${load().slice(5)}`;
};

async function main(): Promise<void> {
  console.log(`review benchmark  [${load()}]  node ${process.version}`);
  const work = await seededDatabase({ prefix: "review", n: N, run: RUN, seed: seedReviews });
  build(values["no-build"] ?? false);
  // The dashboard runs a bulk relabel on a worker thread from the CLI bundle (dist/job.mjs), as installed.
  ensureCliBundle();
  const actions = actionIds();
  const submit = actions.get("submitReviewAction");
  const count = actions.get("countBulkAction");
  const start = actions.get("startBulkAction");
  if (!submit || !count || !start) throw new Error("the build has no review actions");
  const port = await benchPort(values);
  // The event-loop diagnostic (app/api/loop-stats): the server's delay while the bulk relabel runs.
  const server = await startServer(work, port, { ASSUMEPROBE_LOOP_STATS: "1" });
  const base = `http://127.0.0.1:${port}`;
  const ro = new Database(work, { readonly: true, fileMustExist: true });
  try {
    const runId = ro.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(RUN) as number;
    const { label } = bulkLabel(ro, runId);
    const runUrl = `/runs/${encodeURIComponent(RUN)}`;
    // Unreviewed traces of another label, spread over the run, for the single reviews.
    const other = label === "ASK" ? "INJECT" : "ASK";
    const lo = ro.prepare("SELECT min(id) FROM traces WHERE run_id = ?").pluck().get(runId) as number;
    const hi = ro.prepare("SELECT max(id) FROM traces WHERE run_id = ?").pluck().get(runId) as number;
    const next = ro.prepare(
      `SELECT t.id FROM traces t WHERE t.run_id = ? AND t.id >= ? AND json_extract(t.labels, '$.timezone') = ?
         AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.trace_id = t.id) ORDER BY t.id LIMIT 1`,
    );
    const k = REQUESTS + 2;
    const singles = Array.from(
      { length: k },
      (_, i) => next.pluck().get(runId, Math.floor(lo + ((hi - lo) * (i + 0.5)) / k), other) as number,
    );
    const filterQs = `field=timezone&label=${other}`;

    // Warm the pages and the action.
    for (let round = 0; round < 3; round++) {
      await time(`${base}/`);
      await time(`${base}${runUrl}`);
      await time(`${base}/traces/${singles[round]}?${filterQs}`);
    }
    const settleUntil = Date.now() + 90_000;
    while (loadIsHigh(1.0) && Date.now() < settleUntil) await new Promise((r) => setTimeout(r, 2000));

    console.log(`\nserver on ${base}, warmed up; ${REQUESTS} of each after 2 warm-ups  [${load()}]\n`);
    const header = `${"case".padEnd(46)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}  target  load`;
    console.log(header);
    console.log("-".repeat(header.length + 10));

    const relabel: number[] = [];
    const relabelAndNext: number[] = [];
    for (let i = 0; i < k; i++) {
      const id = singles[i];
      const r = await callAction(base, `/traces/${id}?${filterQs}`, submit, {
        traceId: id,
        note: "bench",
        items: [{ field: "timezone", label: "DRIFT", base: null }],
      });
      const res = actionResult(r.body);
      if (res.ok !== true) throw new Error(`review of ${id} failed: ${JSON.stringify(res)}`);
      const page = await time(`${base}/traces/${id + 1}?${filterQs}`, { headers: { cookie: COOKIE } });
      if (i >= 2) {
        relabel.push(r.ms);
        relabelAndNext.push(r.ms + page.ms);
      }
    }
    console.log(row("relabel: the review action's round trip", relabel, 100));
    console.log(row("relabel, then the next trace page", relabelAndNext));

    // The queue's next item over HTTP has a benchmark of its own, on the same kind of database.
    console.log(`${"review queue: next item".padEnd(46)} (npm run bench:queue times it)`);

    // The same pages without a bulk relabel, as the baseline for the figure during one.
    const pages = [`${runUrl}`, `${runUrl}?field=timezone&label=${other}`, `/traces/${singles[0]}`, `/`];
    const quiet: number[] = [];
    await loopDelay(base);
    for (let j = 0; j < 4 * REQUESTS; j++)
      quiet.push((await time(`${base}${pages[j % pages.length]}`, { headers: { cookie: COOKIE } })).ms);
    const quietLoop = await loopDelay(base);
    console.log(row(`pages, no bulk relabel running (${quiet.length})`, quiet));
    console.log(
      `server event loop meanwhile (the baseline): p99 ${fmt(quietLoop.p99Ms, 1)} ms, max ${fmt(quietLoop.maxMs, 1)} ms`,
    );

    // Bulk relabel of BULK fields while pages are requested one after another.
    const bulkQuery = `field=timezone&label=${label}&human=unreviewed`;
    const scope = { run: RUN, query: bulkQuery, field: "timezone", label: "ASK" };
    const c = await callAction(base, runUrl, count, scope);
    const mark = actionResult(c.body) as {
      ok: boolean;
      total: number;
      seenReviewId: number;
      lastTraceId: number;
    };
    if (!mark.ok) throw new Error(`count failed: ${JSON.stringify(mark)}`);
    console.log(`\nbulk relabel of ${bulkQuery} → ASK: ${fmt(mark.total)} fields counted in ${fmt(c.ms)} ms`);
    await loopDelay(base);
    const started = performance.now();
    const s = actionResult(
      (await callAction(base, runUrl, start, { ...scope, note: "bench bulk", ...mark })).body,
    ) as {
      ok: boolean;
      job?: { id: number };
      error?: string;
    };
    if (!s.ok || !s.job) throw new Error(`start failed: ${JSON.stringify(s)}`);
    const jobId = s.job.id;
    const status = ro.prepare("SELECT status, written, skipped FROM bulk_reviews WHERE id = ?");
    const during: number[] = [];
    const reviewsDuring: number[] = [];
    // A reviewer keeps relabelling single traces meanwhile: every fifth request is a review.
    const more = ro
      .prepare(
        `SELECT t.id FROM traces t WHERE t.run_id = ? AND json_extract(t.labels, '$.timezone') = ?
           AND NOT EXISTS (SELECT 1 FROM reviews r WHERE r.trace_id = t.id) ORDER BY t.id DESC LIMIT 2000`,
      )
      .pluck()
      .all(runId, other) as number[];
    let end: { status: string; written: number; skipped: number };
    let i = 0;
    for (;;) {
      end = status.get(jobId) as typeof end;
      if (end.status !== "running") break;
      if (i % 5 === 4 && more.length > 0) {
        const id = more.pop() as number;
        const r = await callAction(base, `/traces/${id}`, submit, {
          traceId: id,
          note: "",
          items: [{ field: "timezone", label: "DRIFT", base: null }],
        });
        if (actionResult(r.body).ok !== true)
          throw new Error(`review of ${id} failed during the bulk relabel`);
        reviewsDuring.push(r.ms);
      } else {
        const r = await time(`${base}${pages[i % pages.length]}`, { headers: { cookie: COOKIE } });
        if (r.status !== 200) throw new Error(`a page answered ${r.status} during the bulk relabel`);
        during.push(r.ms);
      }
      i++;
    }
    const seconds = (performance.now() - started) / 1000;
    const loop = await loopDelay(base);
    console.log(
      `bulk relabel: ${end.status}, ${fmt(end.written)} fields written (${fmt(end.skipped)} skipped) in ${fmt(seconds, 1)} s (${fmt(end.written / seconds)} fields/s)  [${load()}]`,
    );
    console.log(
      `server event loop during the bulk relabel (perf_hooks.monitorEventLoopDelay): p99 ${fmt(loop.p99Ms, 1)} ms, max ${fmt(loop.maxMs, 1)} ms  (target p99 < 50 ms: ${loop.p99Ms < 50 ? "ok" : "MISS"})`,
    );
    console.log(header);
    console.log(row(`pages during the bulk relabel (${during.length})`, during));
    if (reviewsDuring.length)
      console.log(row(`relabels during the bulk relabel (${reviewsDuring.length})`, reviewsDuring));
    if (loadIsHigh()) console.log("note: the 1-minute load is high; figures may be high, repeat later");
  } finally {
    ro.close();
    server.kill("SIGTERM");
  }
}

await main();
