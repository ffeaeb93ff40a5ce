import type { Command } from "commander";
import { hasBlindReviews, interRaterOf } from "../../../db/queries/interRater";
import { getProbe } from "../../../db/queries/probes";
import { figureText, type InterRater, intervalText } from "../../review/interRater";
import { sharePct } from "../../stats";
import { cliDb } from "../db";
import { UsageError } from "../usage";

const n = (x: number) => x.toLocaleString("en-US");

/** The figures as `--json` prints them: snake_case, intervals as low and high (null: none). */
export function agreementJson(f: InterRater, scope: { run: string | null; probe: string | null }) {
  return {
    scope,
    fields: f.fields,
    reviewers: f.reviewers,
    alpha: {
      alpha: f.alpha.alpha,
      low: f.alpha.interval?.low ?? null,
      high: f.alpha.interval?.high ?? null,
      fields: f.alpha.fields,
      values: f.alpha.values,
    },
    pairs: f.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      fields: p.n,
      agree: p.agree,
      kappa: p.kappa.kappa,
      low: p.interval?.low ?? null,
      high: p.interval?.high ?? null,
      confusion: { labels: p.confusion.labels, cells: p.confusion.cells },
    })),
    per_reviewer: f.perReviewer.map((r) => ({
      reviewer: r.reviewer,
      fields: r.fields,
      comparisons: r.comparisons,
      agree: r.agree,
      rate: r.comparisons ? r.rate.rate : null,
      low: r.comparisons ? r.rate.low : null,
      high: r.comparisons ? r.rate.high : null,
      kappa: r.kappa.kappa,
    })),
    label_pairs: f.labelPairs,
  };
}

/** A plain table: columns padded, numbers right-aligned. */
function table(head: string[], rows: string[][], right: boolean[]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => (right[i] ? c.padStart(w[i]) : c.padEnd(w[i])))
      .join("  ")
      .trimEnd();
  return [line(head), ...rows.map(line)].join("\n");
}

export function agreementText(f: InterRater, any: boolean): string {
  if (f.fields === 0)
    return any
      ? "No field in this scope has two blind labels yet.\n"
      : "No field has two blind reviews yet: a blind round (or `assumeprobe label --blind`) gives each field to two reviewers or more.\n";
  const out = [
    `Between reviewers: ${n(f.fields)} fields with two labels or more, ${n(f.reviewers.length)} reviewers`,
    `Krippendorff's alpha ${figureText(f.alpha.alpha)} (95% ${intervalText(f.alpha.interval)})`,
    "",
    "Per pair: Cohen's kappa over the fields both reviewed",
    table(
      ["reviewers", "fields", "agree", "kappa", "95%"],
      f.pairs.map((p) => [
        `${p.a} · ${p.b}`,
        n(p.n),
        sharePct(p.agree, p.n, 0),
        figureText(p.kappa.kappa),
        intervalText(p.interval),
      ]),
      [false, true, true, true, false],
    ),
    "",
    "Per reviewer: agreement with the others",
    table(
      ["reviewer", "fields", "agree", "95%", "kappa"],
      f.perReviewer.map((r) => [
        r.reviewer,
        n(r.fields),
        sharePct(r.agree, r.comparisons, 0),
        intervalText({ low: r.rate.low, high: r.rate.high }),
        figureText(r.kappa.kappa),
      ]),
      [false, true, true, false, true],
    ),
    "",
    "Label pairs two reviewers gave one field, disagreements first",
    table(
      ["labels", "times"],
      f.labelPairs.map((p) => [p.a === p.b ? `${p.a} both` : `${p.a} against ${p.b}`, n(p.n)]),
      [false, true],
    ),
  ];
  return `${out.join("\n")}\n`;
}

export function registerAgreement(program: Command): void {
  program
    .command("agreement")
    .description(
      "Agreement between reviewers (their first blind reviews): Cohen's kappa per pair with its count and 95% interval, Krippendorff's alpha over all, per reviewer agreement with the others, label pairs. The figures of /agreement's 'Between reviewers'.",
    )
    .option("--run <name>", "only this run's fields")
    .option("--probe <id>", "only this probe's fields")
    .option("--json", "one JSON object")
    .action((opts: { run?: string; probe?: string; json?: boolean }) => {
      const db = cliDb();
      if (opts.run !== undefined && !db.sqlite.prepare("SELECT 1 FROM runs WHERE name = ?").get(opts.run))
        throw new UsageError(`--run: there is no run named "${opts.run}"`);
      if (opts.probe !== undefined && !getProbe(db, opts.probe))
        throw new UsageError(`--probe: there is no probe "${opts.probe}"`);
      const f = interRaterOf(db, { run: opts.run, probe: opts.probe });
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify(agreementJson(f, { run: opts.run ?? null, probe: opts.probe ?? null }))}\n`,
        );
        return;
      }
      process.stdout.write(agreementText(f, f.fields > 0 || hasBlindReviews(db)));
    });
}
