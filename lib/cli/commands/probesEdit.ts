import { type Command, Option } from "commander";
import { getProbe, ProbeEditError, saveProbeConfiguration } from "../../../db/queries/probes";
import { runsOfProbe } from "../../../db/queries/tuneRuns";
import { configurationOf, type ProbeConfiguration } from "../../fixtures/configuration";
import { askTermsProblem } from "../../lexicon/limits";
import { askTermsFor, probedFields } from "../../probe/compile";
import type { Probe } from "../../probe/schema";
import { cliDb } from "../db";
import { runTuneFlow, type TuneFlags } from "../tuneFlow";
import { UsageError } from "../usage";
import { fieldValue } from "./lexicon";

const collect = (value: string, previous: string[]) => [...previous, value];

interface EditOptions extends TuneFlags {
  askTerm: string[];
  noAskTerm: string[];
  bait: string[];
  noBait: string[];
  /** A name, or false for --no-clarify-tool (the later of the two wins). */
  clarifyTool?: string | false;
}

/**
 * An option named `--no-…` that takes values: commander reads `--no-x` as the negation of `--x`,
 * which would merge `--no-bait V` into `--bait`'s list; this one keeps its own (`noBait`).
 */
class Removal extends Option {
  constructor(flags: string, description: string) {
    super(flags, description);
    this.negate = false;
    this.argParser(collect).default([]);
  }
}

export interface ProbeEdit {
  addTerms: { field: string; term: string }[];
  removeTerms: { field: string; term: string }[];
  addBait: string[];
  removeBait: string[];
  /** undefined: unchanged; null: no clarify tool. */
  clarifyTool?: string | null;
}

/**
 * A probe's configuration with an edit applied. Adding a term to a field the probe lists none for
 * starts from its field-name terms, so the field's own name keeps counting. Removing a term or
 * bait value the probe does not have, or naming a field it does not probe, is a usage error.
 */
export function editConfiguration(probe: Probe, edit: ProbeEdit): ProbeConfiguration {
  const config = configurationOf(probe);
  const fields = new Set(probedFields(probe));
  const terms: Record<string, string[]> = {};
  for (const [f, list] of Object.entries(config.ask_terms)) terms[f] = list.map((t) => t.toLowerCase());
  const check = (field: string, flag: string) => {
    if (!fields.has(field))
      throw new UsageError(
        `${flag}: probe ${probe.id} does not probe "${field}" (its fields: ${[...fields].join(", ") || "none"})`,
      );
  };
  for (const { field, term } of edit.removeTerms) {
    check(field, "--no-ask-term");
    const list = terms[field] ?? askTermsFor(probe, field);
    const t = term.trim().toLowerCase();
    if (!list.includes(t))
      throw new UsageError(
        `--no-ask-term: ${field} has no ask term "${t}" (it has ${list.map((x) => `"${x}"`).join(", ")})`,
      );
    terms[field] = list.filter((x) => x !== t);
  }
  for (const { field, term } of edit.addTerms) {
    check(field, "--ask-term");
    const t = term.trim().toLowerCase();
    if (t === "") throw new UsageError(`--ask-term ${field}=: the term is empty`);
    const list = terms[field] ?? askTermsFor(probe, field);
    terms[field] = list.includes(t) ? list : [...list, t];
  }
  let bait = [...config.bait];
  for (const b of edit.removeBait) {
    const lower = b.trim().toLowerCase();
    if (!bait.some((x) => x.toLowerCase() === lower))
      throw new UsageError(`--no-bait: probe ${probe.id} has no bait "${b}"`);
    bait = bait.filter((x) => x.toLowerCase() !== lower);
  }
  for (const b of edit.addBait) {
    if (b.trim() === "") throw new UsageError("--bait: the value is empty");
    bait.push(b.trim());
  }
  const clarify = edit.clarifyTool === undefined ? config.clarify_tool : edit.clarifyTool;
  return { ask_terms: terms, bait, clarify_tool: clarify };
}

export function registerProbesEdit(probes: Command): void {
  probes
    .command("edit")
    .description(
      "Change a probe's scoring configuration (ask terms, bait, clarify tool): print the what-if, then save it as a new version that stays current unless --dry-run. A change that breaks a seed fixture exits 1 and saves nothing unless --allow-break.",
    )
    .argument("<id>", "probe id")
    .option("--ask-term <field=term>", "add an ask term (matched as a substring)", collect, [])
    .addOption(new Removal("--no-ask-term <field=term>", "remove an ask term"))
    .option("--bait <value>", "add a bait value", collect, [])
    .addOption(new Removal("--no-bait <value>", "remove a bait value"))
    .option("--clarify-tool <name>", "calls to this tool are asks")
    .option("--no-clarify-tool", "no clarify tool")
    .option("--by <name>", "who saves it (default: your login name)")
    .option("--allow-break", "save even when it breaks a seed fixture")
    .option("--dry-run", "print the what-if and save nothing")
    .option("--rescore", "then re-score every run of the probe")
    .option("--json", "one JSON object: {what_if, saved, refused, rescores}")
    .action(async (id: string, opts: EditOptions) => {
      const edit = probeEditOf(opts);
      const db = cliDb();
      const stored = getProbe(db, id);
      if (!stored) throw new UsageError(`unknown probe "${id}"; see assumeprobe probes list`);
      const configuration = editConfiguration(stored.probe, edit);
      // Before the what-if: a draft no save would take is refused at once, naming the limit.
      const tooMany = askTermsProblem(configuration.ask_terms, `probe ${id}`);
      if (tooMany) throw new UsageError(`probes edit ${id}: ${tooMany}`);
      process.exitCode = await runTuneFlow(
        db,
        { kind: "probe", probe: id, configuration },
        opts,
        (by) => {
          try {
            const saved = saveProbeConfiguration(db, id, configuration, by);
            return { version: saved.version, created: saved.created, what: `${id} v${saved.version}` };
          } catch (e) {
            if (e instanceof ProbeEditError) throw new UsageError(e.message);
            throw e;
          }
        },
        () => runsOfProbe(db, id),
      );
    });
}

/** The flags of `probes edit` as an edit, or a usage error. */
function probeEditOf(o: EditOptions): ProbeEdit {
  const split = (list: string[], flag: string) =>
    list.map((a) => {
      const { field, value } = fieldValue(a, flag, "TERM");
      return { field, term: value };
    });
  const edit: ProbeEdit = {
    addTerms: split(o.askTerm, "--ask-term"),
    removeTerms: split(o.noAskTerm, "--no-ask-term"),
    addBait: o.bait,
    removeBait: o.noBait,
  };
  if (o.clarifyTool === false) edit.clarifyTool = null;
  else if (o.clarifyTool !== undefined) {
    if (o.clarifyTool.trim() === "") throw new UsageError("--clarify-tool: the name is empty");
    edit.clarifyTool = o.clarifyTool.trim();
  }
  const any =
    edit.addTerms.length + edit.removeTerms.length + edit.addBait.length + edit.removeBait.length > 0 ||
    edit.clarifyTool !== undefined;
  if (!any)
    throw new UsageError(
      "probes edit: say what to change (--ask-term, --no-ask-term, --bait, --no-bait, --clarify-tool, --no-clarify-tool)",
    );
  return edit;
}
