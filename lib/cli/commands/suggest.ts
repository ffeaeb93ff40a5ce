import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { ScopeError, type SuggestResult, suggestFor } from "../../../db/queries/suggest";
import { describeChange } from "../../tuning/types";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { suggestionJson, suggestionLines } from "../suggestReport";
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
    .option("--json", "one JSON object on standard output")
    .option("--apply", "save the top suggestions as one new version of the lexicon (or of the probe)")
    .option("--top <n>", "how many suggestions --apply takes (default: every one listed)")
    .option("--by <name>", "who saves (default: the login name)")
    .option("--allow-break", "save even when the change breaks a fixture of the seed set")
    .action(async (flags: SuggestFlags) => {
      const top = parseTop(flags.top);
      if (!flags.apply && (flags.by !== undefined || flags.allowBreak))
        throw new UsageError("--by and --allow-break go with --apply");
      const db = cliDb();
      const result = computeSuggestions(db, flags, top);
      const out = new LineWriter(process.stdout);
      if (!flags.apply) {
        if (flags.json) await out.line(JSON.stringify(suggestionJson(result)));
        else for (const line of suggestionLines(result)) await out.line(line);
        await out.flush();
        return;
      }
      const n = Math.min(top ?? result.suggestions.length, result.suggestions.length);
      if (!flags.json) {
        for (const line of suggestionLines(result)) await out.line(line);
        await out.line(
          n === 0
            ? "nothing to apply"
            : `applying the top ${n}: ${result.suggestions
                .slice(0, n)
                .map((s) => describeChange(s.change))
                .join("; ")}`,
        );
      }
      await out.flush();
      const applied = await applySuggestions(db, result, n, { by: flags.by, allowBreak: flags.allowBreak });
      if (flags.json) await out.line(JSON.stringify({ ...suggestionJson(result), applied: applied.json }));
      else for (const line of applied.lines) await out.line(line);
      await out.flush();
      process.exitCode = applied.code;
    });
}
