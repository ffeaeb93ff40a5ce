import type { Command } from "commander";
import {
  lexiconMutationCheck,
  MutationError,
  type MutationReport,
  probeMutationCheck,
} from "../../../db/queries/mutation";
import { describeMutant } from "../../tuning/mutation";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { UsageError } from "../usage";

const collect = (value: string, previous: string[]) => [...previous, value];
const n = (x: number) => x.toLocaleString("en-US");

/** One report as lines: each term (or the clarify tool) with the fixtures that need it, dead ones marked. */
export function mutationLines(r: MutationReport): string[] {
  const what =
    r.subject.kind === "lexicon"
      ? `lexicon v${r.subject.version}`
      : `${r.subject.probe} v${r.subject.version}`;
  const dead = r.results.filter((x) => x.dead).length;
  const out = [
    `${what}: ${n(r.results.length)} checked against ${n(r.passing)} passing fixtures (of ${n(r.fixtures)}), ${n(dead)} dead`,
  ];
  for (const x of r.results) {
    const fixtures = x.needed.slice(0, 5).map((f) => `${f.set} ${f.identity.slice(0, 12)} (${f.field})`);
    const more = x.needed.length > 5 ? ` and ${n(x.needed.length - 5)} more` : "";
    out.push(
      x.dead
        ? `  DEAD ${describeMutant(x.mutant)}: no fixture fails without it`
        : `  ${describeMutant(x.mutant)}: ${n(x.needed.length)} fixture(s) fail without it: ${fixtures.join(", ")}${more}`,
    );
  }
  return out;
}

export function registerMutationCheck(program: Command): void {
  program
    .command("mutation-check")
    .description(
      "For each ask term and clarify tool (of a probe, or of the lexicon), the fixtures that fail without it; a term no fixture needs is dead.",
    )
    .option("--probe <id>", "check this probe's terms and clarify tool (repeatable)", collect, [])
    .option("--lexicon", "check the lexicon's terms")
    .option("--json", "one JSON line: {reports: [...]}")
    .action(async (flags: { probe: string[]; lexicon?: boolean; json?: boolean }) => {
      const db = cliDb();
      let probes = flags.probe;
      let lexicon = flags.lexicon === true;
      if (probes.length === 0 && !lexicon) {
        // Everything fixtures can speak for: the lexicon and every probe that has a fixture.
        lexicon = true;
        probes = db.sqlite
          .prepare("SELECT DISTINCT probe_id FROM fixtures ORDER BY probe_id")
          .pluck()
          .all() as string[];
      }
      const reports: MutationReport[] = [];
      try {
        if (lexicon) reports.push(lexiconMutationCheck(db));
        for (const p of probes) reports.push(probeMutationCheck(db, p));
      } catch (e) {
        if (e instanceof MutationError) throw new UsageError(e.message);
        throw e;
      }
      const out = new LineWriter(process.stdout);
      if (flags.json) await out.line(JSON.stringify({ reports }));
      else for (const r of reports) for (const line of mutationLines(r)) await out.line(line);
      await out.flush();
    });
}
