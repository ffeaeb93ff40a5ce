import type { Command } from "commander";
import { currentLexicon, lexiconAt, listLexiconVersions, saveLexicon } from "../../../db/queries/lexicon";
import { runsProbingFields } from "../../../db/queries/tuneRuns";
import {
  ANY_FIELD_ENTRY,
  ASK_RULES,
  type AskRule,
  applyLexiconEdit,
  diffEntries,
  entryFor,
  type LexiconEdit,
  LexiconError,
} from "../../lexicon/lexicon";
import { TERM_LIMITS } from "../../lexicon/limits";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { runTuneFlow, type TuneFlags } from "../tuneFlow";
import { positiveInt, UsageError } from "../usage";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `FIELD=VALUE` split at its first `=` (a term may hold one; a field name in a lexicon rarely does). */
export function fieldValue(text: string, flag: string, what: string): { field: string; value: string } {
  const eq = text.indexOf("=");
  if (eq <= 0 || eq === text.length - 1)
    throw new UsageError(`${flag} must look like FIELD=${what}, got "${text}"`);
  return { field: text.slice(0, eq).trim(), value: text.slice(eq + 1) };
}

interface EditOptions extends TuneFlags {
  clear: string[];
  add: string[];
  remove: string[];
  rule: string[];
}

/** The flags of `lexicon edit` as an edit, or a usage error that says which flag was wrong. */
export function lexiconEditOf(o: {
  clear?: string[];
  add: string[];
  remove: string[];
  rule: string[];
}): LexiconEdit {
  const edit: Required<LexiconEdit> = {
    clear: (o.clear ?? []).map((f) => f.trim()),
    add: o.add.map((a) => {
      const { field, value } = fieldValue(a, "--add", "TERM");
      return { field, term: value };
    }),
    remove: o.remove.map((a) => {
      const { field, value } = fieldValue(a, "--remove", "TERM");
      return { field, term: value };
    }),
    rule: o.rule.map((a) => {
      const { field, value } = fieldValue(a, "--rule", ASK_RULES.join("|"));
      if (!(ASK_RULES as readonly string[]).includes(value))
        throw new UsageError(`--rule ${a}: the rule must be ${ASK_RULES.join(" or ")}`);
      return { field, rule: value as AskRule };
    }),
  };
  if (edit.clear.length + edit.add.length + edit.remove.length + edit.rule.length === 0)
    throw new UsageError("lexicon edit: say what to change (--add, --remove, --rule or --clear)");
  return edit;
}

export function registerLexicon(program: Command): void {
  const lexicon = program
    .command("lexicon")
    .description("The shared lexicon: ask terms per field name that count in every probe, and ask rules.");
  lexicon
    .command("list", { isDefault: true })
    .description("Print the current lexicon (or a past version): each field's terms and ask rule.")
    .option("--version <n>", "a past version", positiveInt("--version"))
    .option("--json", "one JSON object: {version, entries}")
    .action(async (opts: { version?: number; json?: boolean }) => {
      const db = cliDb();
      const lex = opts.version !== undefined ? lexiconAt(db, opts.version) : currentLexicon(db);
      if (!lex) throw new UsageError(`the lexicon has no version ${opts.version}`);
      const out = new LineWriter(process.stdout);
      if (opts.json) await out.line(JSON.stringify({ version: lex.version, entries: lex.entries }));
      else {
        const row = listLexiconVersions(db).find((v) => v.version === lex.version);
        await out.line(
          lex.version === 0
            ? "lexicon v0: empty (nothing saved yet)"
            : `lexicon v${lex.version}${row ? `, saved by ${row.savedBy} at ${row.createdAt}` : ""}`,
        );
        const quoted = (terms: readonly string[]) => terms.map((t) => `"${t}"`).join(", ");
        const any = entryFor(lex, ANY_FIELD_ENTRY);
        for (const [field, e] of Object.entries(lex.entries)) {
          const cells = [field, e.rule, quoted(e.terms) || "(no terms)"];
          // The `*` entry counts for every field: marked on its own line, and beside each field's terms.
          if (field === ANY_FIELD_ENTRY) cells.push("(every field)");
          else if (any && any.terms.length > 0)
            cells.push(`+ * (every field, ${any.rule}): ${quoted(any.terms)}`);
          await out.line(cells.join("\t"));
        }
      }
      await out.flush();
    });
  lexicon
    .command("versions")
    .description("Every saved version, newest first, with who saved it and what changed.")
    .option("--json", "one JSON line per version")
    .action(async (opts: { json?: boolean }) => {
      const db = cliDb();
      const out = new LineWriter(process.stdout);
      for (const v of listLexiconVersions(db)) {
        const before = lexiconAt(db, v.version - 1)?.entries ?? {};
        const after = lexiconAt(db, v.version)?.entries ?? {};
        const changes = diffEntries(before, after);
        await out.line(
          opts.json
            ? JSON.stringify({ ...v, changes })
            : `v${v.version}\t${v.createdAt}\t${v.savedBy}\t${v.origin}\t${changes
                .map((c) =>
                  [
                    c.field,
                    ...c.added.map((t) => `+"${t}"`),
                    ...c.removed.map((t) => `-"${t}"`),
                    ...(c.rule ? [`rule ${c.rule[1]}`] : []),
                  ].join(" "),
                )
                .join("; ")}`,
        );
      }
      await out.flush();
    });
  lexicon
    .command("edit")
    .description(
      `Change the lexicon: print the what-if (fixtures fixed and broken, label moves), then save it as a new version unless --dry-run. A change that breaks a seed fixture exits 1 and saves nothing unless --allow-break. Limits: ${TERM_LIMITS.termsPerField} terms a field, ${TERM_LIMITS.termLength} characters a term, ${TERM_LIMITS.fields} fields, ${TERM_LIMITS.totalTerms.toLocaleString("en-US")} terms in all.`,
    )
    .option(
      "--add <field=term>",
      "add a term to a field's entry (whole words; a trailing * is a prefix); the field * is every field of every probe",
      collect,
      [],
    )
    .option("--remove <field=term>", "remove a term from a field's entry", collect, [])
    .option("--rule <field=rule>", "the field's ask rule: anywhere or question", collect, [])
    .option(
      "--clear <field>",
      "remove a field's whole entry (its terms and rule), before the other changes",
      collect,
      [],
    )
    .option("--by <name>", "who saves it (default: your login name)")
    .option("--allow-break", "save even when it breaks a seed fixture")
    .option("--dry-run", "print the what-if and save nothing")
    .option("--rescore", "then re-score every run that probes a changed field")
    .option("--json", "one JSON object: {what_if, saved, refused, rescores}")
    .action(async (opts: EditOptions) => {
      const edit = lexiconEditOf(opts);
      const db = cliDb();
      const base = currentLexicon(db);
      let entries: ReturnType<typeof applyLexiconEdit>;
      try {
        entries = applyLexiconEdit(base.entries, edit);
      } catch (e) {
        if (e instanceof LexiconError) throw new UsageError(e.message);
        throw e;
      }
      const fields = diffEntries(base.entries, entries).map((c) => c.field);
      process.exitCode = await runTuneFlow(
        db,
        { kind: "lexicon", entries },
        opts,
        (by) => {
          const saved = saveLexicon(db, entries, { by, base: base.version });
          return { version: saved.version, created: saved.created, what: `lexicon v${saved.version}` };
        },
        () => runsProbingFields(db, fields),
      );
    });
}
