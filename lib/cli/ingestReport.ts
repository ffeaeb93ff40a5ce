import cliProgress from "cli-progress";
import type { IngestProgress, IngestSummary } from "../ingest/pipeline";

const fmt = (n: number) => n.toLocaleString("en-US");

/** A progress bar on a terminal (records, records per second, errors); nothing otherwise. */
export function createProgressReporter(enabled: boolean): {
  update: (p: IngestProgress) => void;
  stop: () => void;
} {
  if (!enabled) return { update: () => {}, stop: () => {} };
  const started = performance.now();
  const bar = new cliProgress.SingleBar(
    {
      format: " {file} |{bar}| {percentage}% · {records} records · {rate}/s · {rejected} rejected",
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      stream: process.stderr,
      noTTYOutput: false,
    },
    cliProgress.Presets.shades_classic,
  );
  let started_ = false;
  let file = "";
  return {
    update(p) {
      const total = p.totalBytes ?? Math.max(p.bytes, 1);
      const seconds = (performance.now() - started) / 1000;
      const payload = {
        file: p.file.length > 30 ? `…${p.file.slice(-29)}` : p.file,
        records: fmt(p.records),
        rate: fmt(Math.round(p.records / Math.max(seconds, 0.001))),
        rejected: fmt(p.rejected),
      };
      if (!started_ || file !== p.file) {
        if (started_) bar.stop();
        bar.start(total, p.bytes, payload);
        started_ = true;
        file = p.file;
      } else {
        bar.setTotal(total);
        bar.update(p.bytes, payload);
      }
    },
    stop() {
      if (started_) bar.stop();
    },
  };
}

/**
 * The plain summary, or with --json one JSON line as the last line of stdout. `ingest` is the
 * ingest's id: the plain summary ends with where the dashboard lists it.
 */
export function printSummary(s: IngestSummary, seconds: number, json: boolean, ingest?: number): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(s)}\n`);
    return;
  }
  const rate = Math.round(s.records / Math.max(seconds, 0.001));
  const lines = [
    `${fmt(s.records)} record${s.records === 1 ? "" : "s"}: ${fmt(s.ingested)} ingested, ${fmt(s.duplicates)} already stored, ${fmt(s.rejected)} rejected (${seconds.toFixed(1)} s, ${fmt(rate)} records/s)`,
  ];
  // Our own records need no word; another tool's format is named, with what showed it.
  for (const f of s.formats ?? [])
    if (f.format !== "trace") lines.push(`  ${f.file}: read as ${f.format} (${f.evidence})`);
  if (s.spans_skipped) lines.push(`  ${fmt(s.spans_skipped)} spans that are no model generation skipped`);
  for (const r of s.runs) lines.push(`  run ${r.name}: ${fmt(r.ingested)} new traces`);
  if (s.errors.length > 0) {
    lines.push("rejected records:");
    const shown = s.errors.slice(0, 50);
    for (const e of shown) lines.push(`  ${e.file} line ${e.line}: ${e.reason}`);
    const more = s.errors.length - shown.length + (s.errors_omitted ?? 0);
    if (more > 0) lines.push(`  … and ${fmt(more)} more (use --json for the full list)`);
  }
  if (s.warnings) {
    lines.push("warnings (the records were kept):");
    const shown = s.warnings.slice(0, 50);
    for (const w of shown) lines.push(`  ${w.file} line ${w.line}: ${w.reason}`);
    const more = s.warnings.length - shown.length + (s.warnings_omitted ?? 0);
    if (more > 0) lines.push(`  … and ${fmt(more)} more (use --json for the full list)`);
  }
  const unread = s.unreadable?.filter((u) => u.unread) ?? [];
  const cut = s.unreadable?.filter((u) => !u.unread) ?? [];
  if (unread.length > 0) {
    lines.push("files not read:");
    for (const u of unread) lines.push(`  ${u.file}: ${u.reason}`);
  }
  if (cut.length > 0) {
    lines.push("files not read to their end (the records before the failure were kept):");
    for (const u of cut) lines.push(`  ${u.file} after line ${fmt(u.lines)}: ${u.reason}`);
  }
  if (ingest !== undefined)
    lines.push(
      `ingest #${ingest}: its counts and every rejected record on the dashboard at /ingests/${ingest}`,
    );
  process.stdout.write(`${lines.join("\n")}\n`);
}
