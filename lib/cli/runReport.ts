import cliProgress from "cli-progress";
import type { IngestSummary } from "../ingest/pipeline";
import { LABEL_ORDER } from "../labelOrder";
import type { RunTally } from "../runner/tally";

const fmt = (n: number) => n.toLocaleString("en-US");

/** "ASK 3 · OMIT 2 · INJECT 1" for the bar and the summary. */
export function labelLine(counts: [string, number][]): string {
  return counts.length === 0 ? "none yet" : counts.map(([l, n]) => `${l} ${fmt(n)}`).join(" · ");
}

/** A progress bar on a terminal: answers, failures, retries, requests per second, the shown field's labels. */
export function createRunProgress(
  enabled: boolean,
  total: number,
  tally: RunTally,
): { update: () => void; stop: () => void } {
  if (!enabled) return { update: () => {}, stop: () => {} };
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      format:
        " |{bar}| {value}/{total} · {answers} answers · {failed} failed · {retries} retries · {rate} req/s · {field}: {labels}",
      barsize: 20,
      hideCursor: true,
      clearOnComplete: false,
      stream: process.stderr,
      noTTYOutput: false,
      fps: 10,
    },
    cliProgress.Presets.shades_classic,
  );
  const payload = () => {
    const seconds = Math.max((performance.now() - started) / 1000, 0.001);
    return {
      answers: fmt(tally.answers),
      failed: fmt(tally.failed.length),
      retries: fmt(tally.retries),
      rate: (tally.requests / seconds).toFixed(1),
      field: tally.shownField ?? "labels",
      labels: labelLine(tally.shownLabels()),
    };
  };
  bar.start(total, 0, payload());
  let stopped = false;
  return {
    update() {
      if (!stopped) bar.update(tally.answers + tally.failed.length, payload());
    },
    stop() {
      if (stopped) return;
      stopped = true;
      bar.update(tally.answers + tally.failed.length, payload());
      bar.stop();
    },
  };
}

export interface RunSummaryText {
  run: string;
  model: string;
  out: string | null;
  seconds: number;
  tally: RunTally;
  interrupted?: boolean;
  ingest?: IngestSummary;
  /** The run on the dashboard (dashboardLine). */
  dashboard?: string;
}

/** The plain summary, several lines. */
export function runSummaryLines(s: RunSummaryText): string[] {
  const t = s.tally;
  const rate = t.requests / Math.max(s.seconds, 0.001);
  const lines = [
    `run ${s.run} (${s.model}): ${fmt(t.answers)} answers, ${fmt(t.failed.length)} failed, ${fmt(t.retries)} retries; ${fmt(t.requests)} requests in ${s.seconds.toFixed(1)} s (${rate.toFixed(1)}/s)${t.skipped ? `; ${fmt(t.skipped)} already in the file` : ""}${s.out ? ` → ${s.out}` : ""}`,
  ];
  for (const [probe, fields] of Object.entries(t.labels)) {
    for (const [field, counts] of Object.entries(fields)) {
      const sorted = LABEL_ORDER.filter((l) => counts[l]).map((l): [string, number] => [l, counts[l]]);
      lines.push(`  ${probe} ${field}: ${labelLine(sorted)}`);
    }
  }
  const flags = Object.entries(t.flags);
  if (flags.length > 0) lines.push(`  flags: ${flags.map(([f, n]) => `${f} ${fmt(n)}`).join(" · ")}`);
  if (t.failed.length > 0) {
    const byMessage = new Map<string, string[]>();
    for (const f of t.failed) byMessage.set(f.message, [...(byMessage.get(f.message) ?? []), f.id]);
    lines.push("failed samples (no record written; run again with --resume to ask them again):");
    for (const [message, ids] of byMessage) {
      const shown = ids.slice(0, 5).join(", ") + (ids.length > 5 ? `, … (${fmt(ids.length)} in all)` : "");
      lines.push(`  ${message}: ${shown}`);
    }
  }
  if (s.interrupted) lines.push("interrupted: every answer received is in the file; continue with --resume");
  if (s.ingest) {
    const i = s.ingest;
    lines.push(
      `ingested: ${fmt(i.records)} records, ${fmt(i.ingested)} new, ${fmt(i.duplicates)} already stored, ${fmt(i.rejected)} rejected`,
    );
    for (const e of i.errors.slice(0, 10)) lines.push(`  ${e.file} line ${e.line}: ${e.reason}`);
  }
  // A run that stopped says why once, on stderr, beside the other errors: not here as well.
  if (s.dashboard) lines.push(s.dashboard);
  return lines;
}
