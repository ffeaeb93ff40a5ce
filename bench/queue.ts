import { parseArgs } from "node:util";
import { openDb } from "../db/client";
import { agreementCounts } from "../db/queries/agreement";
import {
  nextQueueItem,
  positionToParam,
  type QueueItem,
  queueProgress,
  type ResolvedScope,
  resolveScope,
} from "../db/queries/queue";
import { currentReviews, writeReviews } from "../db/queries/reviews";
import { writeSync } from "../db/write";
import type { Label } from "../lib/probe/schema";
import type { TraceScore } from "../lib/probe/score";
import type { ReviewRequestInput } from "../lib/review/contract";
import { queueRulesOf } from "../lib/review/queueRules";
import { agreementFloor, BLIND_ROUND, seedBlindRound, thirdBlindReview, timeClaims } from "./lib/blindRound";
import { actionIds, seededDatabase } from "./lib/seeded";
import { BIG_RUN, benchPort, build, PAGE_BENCH_OPTIONS, startServer, time } from "./lib/server";
import { fmt, load, loadIsHigh, median, percentile } from "./lib/util";

const { values } = parseArgs({
  options: {
    ...PAGE_BENCH_OPTIONS,
    // Only the blind round's part: its next field and the agreement between reviewers.
    "blind-only": { type: "boolean", default: false },
  },
});
const N = Number(values.n);
const REQUESTS = Number(values.requests);
const RUN = BIG_RUN;

const REVIEWER = "bench";

/** Reviews every tenth trace's timezone field through the write path: 10% of the run reviewed. */
function seedReviews(path: string): void {
  const db = openDb(path);
  try {
    const runId = db.sqlite.prepare("SELECT id FROM runs WHERE name = ?").pluck().get(RUN) as number;
    const rows = db.sqlite
      .prepare(
        "SELECT id, json_extract(labels, '$.timezone') AS label FROM traces WHERE run_id = ? AND id % 10 = 0 ORDER BY id",
      )
      .all(runId) as { id: number; label: Label }[];
    const labels: Label[] = ["ASK", "DRIFT", "OMIT", "INJECT"];
    const t0 = performance.now();
    for (let i = 0; i < rows.length; i += 2000) {
      writeSync(db, () => {
        for (let j = i; j < Math.min(rows.length, i + 2000); j++) {
          const t = rows[j];
          const l = j % 3 === 2 ? labels[(labels.indexOf(t.label) + 1) % labels.length] : t.label;
          const r = writeReviews(db, {
            traceId: t.id,
            reviewer: "bench-seed",
            items: [{ field: "timezone", label: l, base: null }],
          });
          if (!r.ok) throw new Error(`seed: trace ${t.id} already reviewed`);
        }
      });
    }
    const s = (performance.now() - t0) / 1000;
    console.log(
      `seeded ${fmt(rows.length)} reviews (10% of the traces) through writeReviews in ${fmt(s, 1)} s (${fmt((s * 1e6) / rows.length)} µs each)  [${load()}]`,
    );
    seedBlindRound(db, RUN);
    db.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    db.sqlite.close();
  }
}

const row = (name: string, xs: number[], target?: number) => {
  const p95 = percentile(xs, 95);
  const verdict = target === undefined ? "" : `  <${target} ${p95 < target ? "ok " : "MISS"}`;
  return `${name.padEnd(50)} ${fmt(median(xs), 1).padStart(8)} ${fmt(p95, 1).padStart(8)} ${fmt(Math.max(...xs), 1).padStart(8)}${verdict}  ${load().slice(5)}`;
};

/** The field the queue page focuses for an item: the first waiting in the item's rule. */
function focusField(db: ReturnType<typeof openDb>, item: QueueItem): string {
  const t = db.sqlite
    .prepare(
      "SELECT result, human, recorded, json_extract(response, '$.text') AS text FROM traces WHERE id = ?",
    )
    .get(item.traceId) as {
    result: string;
    human: string | null;
    recorded: string | null;
    text: string | null;
  };
  const score = JSON.parse(t.result) as TraceScore;
  const rules = queueRulesOf({
    fields: score.fields,
    flags: score.flags,
    text: t.text,
    imported: t.human ? JSON.parse(t.human) : null,
    recorded: t.recorded ? JSON.parse(t.recorded) : null,
  });
  const reviews = currentReviews(db, item.traceId);
  const field = Object.keys(rules).find((f) => rules[f][0] === item.rule && !reviews.get(f)?.label);
  if (!field) throw new Error(`trace ${item.traceId} has no field waiting under ${item.rule}`);
  return field;
}

/** Median of `k` in-process calls, in milliseconds. */
function floor(k: number, f: () => unknown): number {
  const xs: number[] = [];
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    f();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

async function main(): Promise<void> {
  console.log(`queue benchmark  [${load()}]  node ${process.version}`);
  const work = await seededDatabase({ prefix: "queue", n: N, run: RUN, seed: seedReviews });
  build(values["no-build"] ?? false);
  // The one review action the trace page and the queue share (app/_review/actions.ts).
  const review = actionIds().get("submitReviewAction") ?? "";
  if (!review && !values["blind-only"])
    throw new Error("the build has no server action submitReviewAction (run with --blind-only)");
  const port = await benchPort(values);
  const server = await startServer(work, port);
  const base = `http://127.0.0.1:${port}`;
  // Our own connection reads what the server will serve (the same file, WAL).
  const db = openDb(work);
  try {
    const runScope = resolveScope(db, { run: RUN });
    const p = queueProgress(db, runScope);
    console.log(
      `queue of ${RUN}: ${fmt(p.total)} queued fields, ${fmt(p.reviewed)} reviewed (${fmt(p.corrects)} corrected, ${fmt(p.confirms)} confirmed), ${fmt(p.waitingTotal)} waiting`,
    );
    // Skip positions spread over the run's items in order, worked out before the requests (an idle
    // gap would let the server drop the kept-alive connection).
    const blindOnly = values["blind-only"] ?? false;
    const walkedItems: QueueItem[] = [];
    for (
      let pos = blindOnly ? undefined : nextQueueItem(db, runScope);
      pos;
      pos = nextQueueItem(db, runScope, pos)
    )
      walkedItems.push(pos);
    const walked = walkedItems.length;
    const q = `run=${encodeURIComponent(RUN)}`;
    for (let round = 0; round < 3; round++) {
      await time(`${base}/review?${q}`);
      await time(`${base}/agreement`);
      await time(`${base}/`);
    }
    const settleUntil = Date.now() + 90_000;
    while (loadIsHigh(1.0) && Date.now() < settleUntil) await new Promise((r) => setTimeout(r, 2000));
    console.log(`\nserver on ${base}, warmed up; ${REQUESTS} of each after 2 warm-ups  [${load()}]\n`);
    const header = `${"case".padEnd(50)} ${"median".padStart(8)} ${"p95".padStart(8)} ${"max".padStart(8)}  target  load`;
    console.log(header);
    console.log("-".repeat(header.length + 10));
    const k = REQUESTS + 2;

    // Review the item the queue shows, through the queue's own action; its answer is the next item.
    const reviewItem = async (page: string, s: ResolvedScope) => {
      const item = nextQueueItem(db, s);
      if (!item) throw new Error("the queue ran dry");
      const field = focusField(db, item);
      const r = await time(`${base}${page}`, {
        method: "POST",
        keepBody: true,
        headers: {
          "next-action": review,
          "content-type": "text/plain;charset=UTF-8",
          accept: "text/x-component",
          origin: base,
          // The reviewer the server reads: the browser's cookie, as a reviewer's would carry it.
          cookie: `assumeprobe_reviewer=${REVIEWER}`,
        },
        // lib/review/contract.ts's ReviewRequestInput, as the queue sends it.
        body: JSON.stringify([
          {
            traceId: item.traceId,
            items: [{ field, label: "ASK", base: null }],
            refresh: true,
          } satisfies ReviewRequestInput,
        ]),
      });
      if (r.status !== 200 || !r.body?.includes('"ok":true'))
        throw new Error(`review of ${item.traceId} failed: ${r.status} ${r.body?.slice(0, 300)}`);
      const next = nextQueueItem(db, s);
      // The answer carries the queue re-rendered on its next item.
      if (next && !r.body.includes(`"data-trace-id":${next.traceId}`))
        throw new Error(`the action's answer does not show the next item (trace ${next.traceId})`);
      return r.ms;
    };

    const scopes: [string, string, ResolvedScope][] = [
      ["run", `/review?${q}`, runScope],
      [
        "run and probe",
        `/review?${q}&probe=schedule_window`,
        resolveScope(db, { run: RUN, probe: "schedule_window" }),
      ],
      ["every run", "/review", resolveScope(db, {})],
    ];
    for (const [name, page, s] of blindOnly ? [] : scopes) {
      const action: number[] = [];
      const pages: number[] = [];
      for (let i = 0; i < k; i++) {
        const a = await reviewItem(page, s);
        const g = await time(`${base}${page}`);
        if (g.status !== 200) throw new Error(`${page} answered ${g.status}`);
        if (i >= 2) {
          action.push(a);
          pages.push(g.ms);
        }
      }
      console.log(row(`key → next item (review action), ${name}`, action, 100));
      console.log(row(`GET /review, ${name}`, pages, 100));
    }

    // k positions spread evenly over the queue as it stood, the first two for warm-up.
    const deep = Array.from({ length: k }, (_, i) => walkedItems[Math.floor(((i + 0.5) * walked) / k)]);
    const skips: number[] = [];
    for (let i = 0; i < (blindOnly ? 0 : deep.length); i++) {
      const g = await time(`${base}/review?${q}&after=${positionToParam(deep[i])}`);
      if (g.status !== 200) throw new Error(`skip answered ${g.status}`);
      if (i >= 2) skips.push(g.ms);
    }
    if (!blindOnly) console.log(row(`GET /review after a skip (${walked} items walked)`, skips, 100));

    // The blind round: its next field for a reviewer new to it and for one who reviewed 10% of
    // the run blind (a claim with its lease, through the write path, then that field reviewed).
    for (const reviewer of ["cy", "ann"]) {
      const xs = timeClaims(db, reviewer, k).slice(2);
      console.log(row(`round's next field (claim + lease), ${reviewer}`, xs, 100));
    }

    for (const [name, url, target] of [
      ["GET /agreement", "/agreement", 200],
      ["GET /agreement, the run", `/agreement?${q}`, 200],
      ["GET /agreement, the blind round", `/agreement?round=${BLIND_ROUND}`, 200],
      ["GET /agreement, one probe and field", "/agreement?probe=schedule_window&field=timezone", 100],
      ["GET / (overview, with the agreement line)", "/", 200],
    ] as const) {
      const xs: number[] = [];
      for (let i = 0; i < k; i++) {
        const g = await time(`${base}${url}`);
        if (g.status !== 200) throw new Error(`${url} answered ${g.status}`);
        if (i >= 2) xs.push(g.ms);
      }
      console.log(row(name, xs, target));
    }
    // A new blind label before each request: the figures are worked out again, never the kept copy.
    const fresh: number[] = [];
    for (let i = 0; i < k; i++) {
      thirdBlindReview(db, RUN, i);
      const g = await time(`${base}/agreement`);
      if (g.status !== 200) throw new Error(`/agreement answered ${g.status}`);
      if (i >= 2) fresh.push(g.ms);
    }
    console.log(row("GET /agreement after a new blind label", fresh, 200));
    const fl = agreementFloor(db, 10);
    console.log(
      `\nin this process (median of 10): the blind counts read ${fmt(median(fl.read), 3)} ms, kappa, alpha and their 1,000-resample intervals ${fmt(median(fl.figures), 1)} ms (${fmt(fl.fields)} fields with two blind labels)`,
    );

    const a = agreementCounts(db);
    console.log(
      `\nin this process (median of 20): next item ${fmt(
        floor(20, () => nextQueueItem(db, runScope)),
        3,
      )} ms, progress ${fmt(
        floor(20, () => queueProgress(db, runScope)),
        3,
      )} ms, agreement counts ${fmt(
        floor(20, () => agreementCounts(db)),
        3,
      )} ms (${fmt(a.length)} rows over ${fmt(a.reduce((x, c) => x + c.n, 0))} fields with a human label)`,
    );
    if (loadIsHigh()) console.log("note: the 1-minute load is high; figures may be high, repeat later");
  } finally {
    db.sqlite.close();
    server.kill("SIGTERM");
  }
}

await main();
