import { createReadStream } from "node:fs";
import type { Writable } from "node:stream";
import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { exportFixtureLines, exportPytest } from "../../../db/queries/fixtureExport";
import { checkImportTarget, importFixtures } from "../../../db/queries/fixtureImport";
import { fixturePage, setSummaries, setSummary } from "../../../db/queries/fixtureList";
import { rerunAll, rerunSet } from "../../../db/queries/fixtureRuns";
import { syncSeedSet } from "../../../db/queries/fixtureSeed";
import { getSet } from "../../../db/queries/fixtureSets";
import { FixtureError } from "../../fixtures/errors";
import { numberedLines } from "../../fixtures/lines";
import { PYTHON_MODULE } from "../../fixtures/python";
import { passRateText } from "../../fixtures/rerun";
import { checkReadable, SourceError } from "../../ingest/readSource";
import { cliDb } from "../db";
import { rerunJson, rerunText } from "../fixtureReport";
import { LineWriter } from "../output";
import { UsageError } from "../usage";

/** The database with the seed set in step. */
function fixturesDb(): Db {
  const db = cliDb();
  syncSeedSet(db);
  return db;
}

function usage<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof FixtureError) throw new UsageError(e.message);
    throw e;
  }
}

function requireSet(db: Db, name: string) {
  const set = getSet(db, name);
  if (!set) {
    const names = setSummaries(db).map((s) => s.name);
    throw new UsageError(`unknown fixture set "${name}" (sets: ${names.join(", ")})`);
  }
  return set;
}

/** Writes chunks of text, waiting when the reader is slower. */
async function writeChunks(out: Writable, chunks: Iterable<string>): Promise<void> {
  let buf = "";
  for (const c of chunks) {
    buf += c;
    if (buf.length >= 1 << 16) {
      const full = !out.write(buf);
      buf = "";
      if (full) await new Promise<void>((resolve) => out.once("drain", resolve));
    }
  }
  if (buf) out.write(buf);
}

const when = (iso: string) => iso.replace("T", " ").slice(0, 16);

export function registerFixtures(program: Command): void {
  const fixtures = program
    .command("fixtures")
    .description("Curated fixture sets: list, show, re-run as a CI tripwire, export and import.");

  fixtures
    .command("list")
    .description("Every fixture set with its size and its latest re-run.")
    .option("--json", "one JSON line per set")
    .action((opts: { json?: boolean }) => {
      const db = fixturesDb();
      for (const s of setSummaries(db)) {
        const l = s.latest;
        if (opts.json) {
          process.stdout.write(
            `${JSON.stringify({
              set: s.name,
              description: s.description,
              builtin: s.builtin,
              fixtures: s.fixtures,
              latest: l
                ? {
                    rerun: l.id,
                    at: l.createdAt,
                    passed: l.passed,
                    total: l.total,
                    broke: l.broke,
                    fixed: l.fixed,
                    scorer_version: l.scorerVersion,
                  }
                : null,
              stale: s.stale,
            })}\n`,
          );
        } else {
          const last = l
            ? `last re-run ${when(l.createdAt)}: ${passRateText(l.passed, l.total)}${l.broke + l.fixed ? `, ${l.broke + l.fixed} flips` : ""}${s.stale ? " (changed since: re-run it)" : ""}`
            : "never re-run";
          process.stdout.write(
            `${s.name}\t${s.fixtures} fixture${s.fixtures === 1 ? "" : "s"}${s.builtin ? "\tbuilt-in, read-only" : ""}\t${last}\n`,
          );
        }
      }
    });

  fixtures
    .command("show")
    .description("A set's fixtures, with each one's result in the set's latest re-run.")
    .argument("<set>", "set name")
    .option("--json", "one JSON line per fixture")
    .action(async (name: string, opts: { json?: boolean }) => {
      const db = fixturesDb();
      const set = requireSet(db, name);
      const s = setSummary(db, set.name);
      const out = new LineWriter(process.stdout);
      if (!opts.json) {
        await out.line(
          `${set.name}${set.builtin ? " (built-in, read-only)" : ""}: ${s?.fixtures ?? 0} fixtures`,
        );
        if (set.description) await out.line(set.description);
        await out.line(
          s?.latest
            ? `latest re-run ${when(s.latest.createdAt)}: ${passRateText(s.latest.passed, s.latest.total)} (scorer ${s.latest.scorerVersion})${s.stale ? "; changed since: re-run with fixtures check" : ""}`
            : "never re-run: fixtures check re-runs it",
        );
      }
      let after = 0;
      for (;;) {
        const page = fixturePage(db, set.id, s?.latest?.id ?? null, { after, limit: 1000 });
        for (const f of page.rows) {
          if (opts.json)
            await out.line(
              JSON.stringify({
                identity: f.identity,
                probe: f.probe,
                field: f.field,
                expected: f.expected,
                reviewer: f.reviewer,
                note: f.note,
                updated_at: f.updatedAt,
                source_trace: f.sourceTraceId,
                last: f.last && { label: f.last.label, passed: f.last.passed, change: f.last.change },
              }),
            );
          else {
            const res = f.last ? `${f.last.passed ? "pass" : "FAIL"} (${f.last.label})` : "not re-run";
            await out.line(
              `${f.identity.slice(0, 12)}  ${f.probe} ${f.field}  expected ${f.expected}  ${res}  by ${f.reviewer}${f.note ? `: ${f.note}` : ""}`,
            );
          }
        }
        if (page.next === null) break;
        after = page.next;
      }
      await out.flush();
    });

  fixtures
    .command("check")
    .description(
      "Re-run sets (all when none is named) with the current scorer, store each re-run, print every failure and flip. Exit 0 when every fixture passes, 1 when any fails.",
    )
    .argument("[sets...]", "set names (default: every set)")
    .option("--json", "one JSON line per set")
    .action((names: string[], opts: { json?: boolean }) => {
      const db = fixturesDb();
      for (const n of names) requireSet(db, n);
      const reports = names.length
        ? names.map((n) => usage(() => rerunSet(db, n, "cli")))
        : rerunAll(db, "cli");
      let failed = 0;
      for (const r of reports) {
        failed += r.run.failed;
        if (opts.json) process.stdout.write(`${JSON.stringify(rerunJson(r))}\n`);
        else process.stdout.write(`${rerunText(r).join("\n")}\n`);
      }
      process.exitCode = failed > 0 ? 1 : 0;
    });

  fixtures
    .command("export")
    .description("Print a set to standard output: JSONL (one fixture a line) or a pytest module.")
    .argument("<set>", "set name")
    .option("--format <format>", "jsonl or pytest", "jsonl")
    .option("--module <name>", "pytest: the Python module score_trace is imported from", "assumeprobe")
    .option("--with-reference", "pytest: embed a reference scorer with the probes' current configuration")
    .action(async (name: string, opts: { format: string; module: string; withReference?: boolean }) => {
      if (opts.format !== "jsonl" && opts.format !== "pytest")
        throw new UsageError(`--format must be jsonl or pytest, got "${opts.format}"`);
      if (opts.format === "jsonl" && opts.withReference)
        throw new UsageError("--with-reference goes with --format pytest");
      if (!PYTHON_MODULE.test(opts.module))
        throw new UsageError(
          `--module must be a Python module name such as assumeprobe or evals.scorer, got "${opts.module}"`,
        );
      const db = fixturesDb();
      const set = requireSet(db, name);
      if (opts.format === "pytest") {
        await writeChunks(
          process.stdout,
          exportPytest(db, set.name, { module: opts.module, reference: Boolean(opts.withReference) }),
        );
        return;
      }
      const out = new LineWriter(process.stdout);
      for (const line of exportFixtureLines(db, set.name)) await out.line(line);
      await out.flush();
    });

  fixtures
    .command("import")
    .description(
      "Store fixture lines (an export's JSONL; - for stdin). Every bad line is reported by number and the rest are kept; lines already in their set add nothing; the seed set is read-only.",
    )
    .argument("<file>", "a JSONL file of fixture lines")
    .option(
      "--set <name>",
      "put every fixture in this set (created when missing) instead of the set each line names",
    )
    .option("--json", "print the summary as one JSON line")
    .action(async (file: string, opts: { set?: string; json?: boolean }) => {
      usage(() => checkImportTarget(opts.set));
      if (file !== "-") {
        try {
          checkReadable(file);
        } catch (e) {
          if (e instanceof SourceError) throw new UsageError(e.message);
          throw e;
        }
      }
      const db = fixturesDb();
      const input = file === "-" ? process.stdin : createReadStream(file);
      const name = file === "-" ? "stdin" : (file.split(/[\\/]/).pop() ?? file);
      const sum = await importFixtures(db, numberedLines(input), { set: opts.set, file: name });
      if (opts.json) process.stdout.write(`${JSON.stringify(sum)}\n`);
      else {
        for (const e of sum.errors) process.stderr.write(`line ${e.line}: ${e.reason}\n`);
        for (const p of sum.probes)
          process.stdout.write(
            `probe ${p.id}: ${p.action === "created" ? "created" : "new version"} ${p.version}\n`,
          );
        for (const n of sum.notes) process.stdout.write(`note: ${n}\n`);
        const sets = sum.sets.map((s) => `${s.name}${s.created ? " (new)" : ""}`).join(", ");
        process.stdout.write(
          `${sum.lines} lines: ${sum.added} added, ${sum.relabelled} relabelled, ${sum.duplicates} already there, ${sum.rejected} rejected${sets ? ` · ${sets}` : ""}\n`,
        );
      }
      process.exitCode = sum.rejected > 0 ? 1 : 0;
    });
}
