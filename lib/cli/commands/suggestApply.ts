import { userInfo } from "node:os";
import type { Db } from "../../../db/client";
import { LexiconConflict, saveLexicon } from "../../../db/queries/lexicon";
import { ProbeEditError, saveProbeConfiguration } from "../../../db/queries/probes";
import { draftOf, type SuggestResult } from "../../../db/queries/suggest";
import { whatIf } from "../../../db/queries/whatIf";
import { LexiconError } from "../../lexicon/lexicon";
import { UsageError } from "../usage";

export interface ApplyFlags {
  by?: string;
  allowBreak?: boolean;
}

export interface Applied {
  code: number;
  lines: string[];
  json: Record<string, unknown>;
}

/** Who saves: `--by`, else the login name of whoever runs the command. */
function saverName(by: string | undefined): string {
  let name = by ?? process.env.USER ?? "";
  if (name.trim() === "")
    try {
      name = userInfo().username;
    } catch {
      name = "";
    }
  if (name.trim() === "") throw new UsageError("say who saves the change with --by NAME");
  return name.trim();
}

/**
 * Saves the top `n` suggestions as one new version of the lexicon (or of the probe's terms), after
 * their what-if: a change that breaks a seed fixture is refused (exit 1) unless allowBreak.
 */
export async function applySuggestions(
  db: Db,
  r: SuggestResult,
  n: number,
  flags: ApplyFlags,
): Promise<Applied> {
  const by = saverName(flags.by);
  if (n === 0) return { code: 0, lines: [], json: { saved: null, refused: null, what_if: null } };
  const draft = draftOf(r, n);
  const report = whatIf(db, draft);
  if (report.fixtures.seedBroken > 0 && !flags.allowBreak) {
    const why = `it breaks ${report.fixtures.seedBroken} fixture(s) of the seed set: nothing saved (--allow-break saves it anyway)`;
    process.stderr.write(`assumeprobe: ${why}\n`);
    return { code: 1, lines: [], json: { saved: null, refused: why, what_if: report } };
  }
  try {
    if (draft.kind === "lexicon") {
      const base = r.target.version;
      const saved = saveLexicon(db, draft.entries, { by, origin: "suggest", base });
      return {
        code: 0,
        lines: [
          saved.created
            ? `saved lexicon v${saved.version} (by ${by})`
            : "nothing to save: the lexicon already says this",
        ],
        json: { saved: { lexicon: saved.version, created: saved.created }, refused: null, what_if: report },
      };
    }
    const saved = saveProbeConfiguration(db, draft.probe, draft.configuration, by);
    return {
      code: 0,
      lines: [
        saved.created
          ? `saved ${draft.probe} v${saved.version} (by ${by})`
          : `nothing to save: ${draft.probe} already says this`,
      ],
      json: {
        saved: { probe: draft.probe, version: saved.version, created: saved.created },
        refused: null,
        what_if: report,
      },
    };
  } catch (e) {
    if (e instanceof LexiconConflict || e instanceof LexiconError || e instanceof ProbeEditError) {
      process.stderr.write(`assumeprobe: ${e.message}\n`);
      return { code: 1, lines: [], json: { saved: null, refused: e.message, what_if: report } };
    }
    throw e;
  }
}
