import type { Db } from "../../../db/client";
import { saveLexicon } from "../../../db/queries/lexicon";
import { ProbeEditError, saveProbeConfiguration } from "../../../db/queries/probes";
import { draftOf, type SuggestResult } from "../../../db/queries/suggest";
import { runsOfProbe, runsProbingFields } from "../../../db/queries/tuneRuns";
import { diffEntries, type LexiconEntry, LexiconError, normalizeEntries } from "../../lexicon/lexicon";
import { askTermsProblem } from "../../lexicon/limits";
import { runTuneFlow, type TuneFlags } from "../tuneFlow";
import { UsageError } from "../usage";

/**
 * Saves the top `n` suggestions as one new version of the lexicon (or of the probe's terms) through
 * the same flow as `lexicon edit` and `probes edit`: the what-if, the seed-break refusal (exit 1
 * unless --allow-break), the save from the version the suggestions were drafted from, and with
 * --rescore the re-score of the runs it applies to. Returns the exit code.
 */
export async function applySuggestions(
  db: Db,
  r: SuggestResult,
  n: number,
  flags: TuneFlags,
): Promise<number> {
  const draft = draftOf(r, n);
  // Before the what-if: the limits every save applies (a lexicon at its limits takes no more).
  const tooMany =
    draft.kind === "lexicon"
      ? lexiconProblem(draft.entries)
      : askTermsProblem(draft.configuration.ask_terms, `probe ${draft.probe}`);
  if (tooMany) throw new UsageError(`suggest --apply: ${tooMany}`);
  if (draft.kind === "lexicon") {
    const base = r.bound.lexiconWith([]);
    const fields = diffEntries(base.entries, draft.entries).map((c) => c.field);
    return runTuneFlow(
      db,
      draft,
      flags,
      (by) => {
        const saved = saveLexicon(db, draft.entries, { by, origin: "suggest", base: base.version });
        return { version: saved.version, created: saved.created, what: `lexicon v${saved.version}` };
      },
      () => runsProbingFields(db, fields),
    );
  }
  return runTuneFlow(
    db,
    draft,
    flags,
    (by) => {
      try {
        const saved = saveProbeConfiguration(db, draft.probe, draft.configuration, by);
        return { version: saved.version, created: saved.created, what: `${draft.probe} v${saved.version}` };
      } catch (e) {
        if (e instanceof ProbeEditError) throw new UsageError(e.message);
        throw e;
      }
    },
    () => runsOfProbe(db, draft.probe),
  );
}

function lexiconProblem(entries: Readonly<Record<string, LexiconEntry>>): string | null {
  try {
    normalizeEntries(entries);
    return null;
  } catch (e) {
    if (e instanceof LexiconError) return e.message;
    throw e;
  }
}
