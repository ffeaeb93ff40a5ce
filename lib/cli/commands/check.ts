import { existsSync } from "node:fs";
import type { Command } from "commander";
import { databasePath } from "../../../db/client";
import { getRunSummary, type RunSummary } from "../../../db/queries/runs";
import { checkRates, type MaxRule, parseMaxRule, type RateLine } from "../../runner/check";
import { pct } from "../../stats";
import { cliDb } from "../db";
import { UsageError } from "../usage";

interface CheckOptions {
  field?: string;
  max: string[];
  against?: string;
  json?: boolean;
}

const collect = (v: string, prev: string[]) => [...prev, v];

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description("A CI tripwire on a run's label rates: maximum rates, or no worse than a baseline run.")
    .argument("<run>", "the run to check (by name)")
    .option("--field <field>", "check this field only (default: every probed field)")
    .option(
      "--max <label=rate>",
      "fail when LABEL's rate is over RATE, a fraction (INJECT=0.05); repeatable",
      collect,
      [],
    )
    .option("--against <run>", "fail when INJECT, DRIFT or ERROR rose beyond sampling noise against this run")
    .option("--json", "print the result as one JSON line")
    .action((run: string, opts: CheckOptions) => {
      process.exitCode = runCheck(run, opts);
    });
}

function findRun(name: string, what: string): RunSummary {
  if (!existsSync(databasePath()))
    throw new UsageError(`unknown ${what} "${name}": there is no database yet`);
  const r = getRunSummary(cliDb(), name);
  if (!r) throw new UsageError(`unknown ${what} "${name}"; the dashboard's / lists the runs`);
  return r;
}

/** A run's model and size; agent steps (lib/ingest/agentTurns.ts) are stored but not counted. */
function runSize(r: RunSummary): string {
  const steps = r.flags.agent_step ?? 0;
  const size = `${r.model ?? "unknown"}, ${r.traceCount.toLocaleString("en-US")} traces`;
  return steps > 0 ? `${size}, ${steps.toLocaleString("en-US")} of them agent steps not counted` : size;
}

const fmtRate = (r: { k: number; n: number; rate: number; low: number; high: number }) =>
  `${pct(r.rate, 1)} [${pct(r.low, 1)}, ${pct(r.high, 1)}] ${r.k.toLocaleString("en-US")}/${r.n.toLocaleString("en-US")}`;

function rateLineText(l: RateLine): string {
  const parts = [`  ${l.label.padEnd(6)} ${fmtRate(l.rate)}`];
  if (l.max !== undefined) parts.push(`max ${pct(l.max, 1)}${l.over ? ": FAIL" : ": ok"}`);
  if (l.baseline) {
    const b = l.baseline;
    const moved = `${b.delta >= 0 ? "+" : "−"}${Math.abs(b.delta * 100).toFixed(1)} pt`;
    const noise =
      b.z !== undefined && Math.abs(b.z) > 1.96 ? "beyond sampling noise" : "within sampling noise";
    parts.push(`baseline ${fmtRate(b.rate)}, ${moved} (${noise}${b.rose ? ": FAIL" : ""})`);
  }
  return parts.join(" · ");
}

export function runCheck(name: string, opts: CheckOptions): number {
  const max: MaxRule[] = [];
  for (const m of opts.max) {
    const r = parseMaxRule(m);
    if (typeof r === "string") throw new UsageError(r);
    max.push(r);
  }
  if (max.length === 0 && opts.against === undefined)
    throw new UsageError("nothing to check: give --max LABEL=RATE (repeatable) and/or --against RUN");
  const run = findRun(name, "run");
  const baseline = opts.against !== undefined ? findRun(opts.against, "baseline run (--against)") : undefined;
  let fields = run.fields.filter((f) => f.n > 0);
  if (opts.field !== undefined) {
    fields = fields.filter((f) => f.field === opts.field);
    if (fields.length === 0)
      throw new UsageError(
        `run "${name}" has no traces probing field "${opts.field}" (its fields: ${run.fields.map((f) => f.field).join(", ") || "none"})`,
      );
  }
  if (fields.length === 0) throw new UsageError(`run "${name}" has no scored traces to check`);
  const result = checkRates(fields, { max, against: baseline?.fields });
  const pass = result.failures.length === 0;
  if (opts.json) {
    process.stdout.write(
      `${JSON.stringify({
        run: name,
        against: opts.against ?? null,
        pass,
        failures: result.failures.length,
        not_in_baseline: result.notInBaseline,
        rates: result.lines,
      })}\n`,
    );
    return pass ? 0 : 1;
  }
  const out: string[] = [
    `check ${name} (${runSize(run)})${baseline ? ` against ${baseline.name} (${runSize(baseline)})` : ""}`,
  ];
  for (const f of fields) {
    out.push(
      `${f.field} (n=${f.n.toLocaleString("en-US")})${result.notInBaseline.includes(f.field) ? " · not in the baseline: not compared" : ""}`,
    );
    for (const l of result.lines.filter((x) => x.field === f.field)) out.push(rateLineText(l));
  }
  out.push(
    pass
      ? "pass: every rate within its limits"
      : `FAIL: ${result.failures.map((l) => `${l.field} ${l.label}`).join(", ")}`,
  );
  process.stdout.write(`${out.join("\n")}\n`);
  return pass ? 0 : 1;
}
