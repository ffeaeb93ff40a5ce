import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { syncSeedSet } from "../../../db/queries/fixtureSeed";
import { ScopeError, type SuggestResult, suggestFor, suggestionJson } from "../../../db/queries/suggest";
import { describeChange } from "../../tuning/types";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { suggestionLines } from "../suggestReport";
import { UsageError } from "../usage";
import { applySuggestions } from "./suggestApply";

const collect = (value: string, previous: string[]) => [...previous, value];

export interface SuggestFlags {
  probe?: string;
  run: string[];
  set: string[];
  json?: boolean;
  apply?: boolean;
  top?: string;
  by?: string;
  allowBreak?: boolean;
  rescore?: boolean;
  minFixes?: string;
  minTraces?: string;
  /** false with --no-any-field: no term goes to the lexicon's `*` entry. */
  anyField?: boolean;
}

/** `--min-fixes N`, `--min-traces N`: a whole number from 1 to 1000. */
function parseMin(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(text) || Number(text) > 1000)
    throw new UsageError(`${flag} must be a whole number from 1 to 1000, got "${text}"`);
  return Number(text);
}

/** `--top N`: a positive whole number, at most 1000. */
export function parseTop(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]{0,3}$/.test(text) || Number(text) > 1000)
    throw new UsageError(`--top must be a whole number from 1 to 1000, got "${text}"`);
  return Number(text);
}

function computeSuggestions(db: Db, flags: SuggestFlags, limit: number | undefined): SuggestResult {
  try {
    return suggestFor(db, {
      scope: { runs: flags.run, sets: flags.set, probe: flags.probe },
      limit,
      minFixes: parseMin(flags.minFixes, "--min-fixes"),
      minTraces: parseMin(flags.minTraces, "--min-traces"),
      anyField: flags.anyField,
    });
  } catch (e) {
    if (e instanceof ScopeError) throw new UsageError(e.message);
    throw e;
  }
}

export function registerSuggest(program: Command): void {
  program
    .command("suggest")
    .description(
      "Suggest lexicon changes (or, with --probe, changes to that probe's terms) learned from the human labels in scope: additions that fix missed questions, removals and the question rule where ours says ASK and humans said DRIFT, each with its what-if. --apply saves the top N as one new version.",
    )
    .option("--probe <id>", "learn that probe's own terms from its fields only (default: the shared lexicon)")
    .option("--run <name>", "count only this run's labels (repeatable)", collect, [])
    .option("--set <name>", "count only this fixture set's labels (repeatable)", collect, [])
    .option("--min-fixes <n>", "fixes a suggestion needs (default 2)")
    .option("--min-traces <n>", "different traces its fixes must come from (default 2)")
    .option("--no-any-field", "never propose a term for the lexicon's * entry (every field of every probe)")
    .option("--json", "one JSON object on standard output")
    .option("--apply", "save the top suggestions as one new version of the lexicon (or of the probe)")
    .option("--top <n>", "how many suggestions --apply takes (default: every one listed)")
    .option("--by <name>", "who saves (default: the login name)")
    .option("--allow-break", "save even when the change breaks a fixture of the seed set")
    .option("--rescore", "after saving, re-score every run the change applies to")
    .action(async (flags: SuggestFlags) => {
      const top = parseTop(flags.top);
      if (!flags.apply && (flags.by !== undefined || flags.allowBreak || flags.rescore))
        throw new UsageError("--by, --allow-break and --rescore go with --apply");
      const db = cliDb();
      // The seed set is built in: present before any what-if, so a change that breaks it is seen.
      syncSeedSet(db);
      const result = computeSuggestions(db, flags, top);
      const out = new LineWriter(process.stdout);
      if (!flags.apply) {
        if (flags.json) await out.line(JSON.stringify(suggestionJson(result)));
        else for (const line of suggestionLines(result)) await out.line(line);
        await out.flush();
        return;
      }
      const n = Math.min(top ?? result.suggestions.length, result.suggestions.length);
      // With --json the suggestions are the first line and the save, as `lexicon edit --json` prints it, the last.
      if (flags.json) await out.line(JSON.stringify(suggestionJson(result)));
      else {
        for (const line of suggestionLines(result)) await out.line(line);
        if (n > 0)
          await out.line(
            `applying the top ${n}: ${result.suggestions
              .slice(0, n)
              .map((s) => describeChange(s.change))
              .join("; ")}`,
          );
      }
      await out.flush();
      if (n === 0) {
        if (flags.json)
          await out.line(JSON.stringify({ what_if: null, saved: null, refused: null, rescores: [] }));
        else await out.line("nothing to apply");
        await out.flush();
        return;
      }
      process.exitCode = await applySuggestions(db, result, n, flags);
    });
}
