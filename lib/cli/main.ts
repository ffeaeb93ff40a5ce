import { Command, CommanderError } from "commander";
import { registerAgreement } from "./commands/agreement";
import { registerBulkRun } from "./commands/bulkRun";
import { registerCheck } from "./commands/check";
import { registerDb } from "./commands/db";
import { registerExport } from "./commands/export";
import { registerFixtures } from "./commands/fixtures";
import { registerFuzzGate } from "./commands/fuzzGate";
import { registerGate } from "./commands/gate";
import { registerIngest } from "./commands/ingest";
import { registerLabel } from "./commands/label";
import { registerLexicon } from "./commands/lexicon";
import { registerMutationCheck } from "./commands/mutationCheck";
import { registerProbes } from "./commands/probes";
import { registerRescore } from "./commands/rescore";
import { registerRun } from "./commands/run";
import { registerScore } from "./commands/score";
import { registerSetup } from "./commands/setup";
import { registerSuggest } from "./commands/suggest";
import { OutputClosed, watchOutput } from "./output";
import { UsageError } from "./usage";

/** Builds the `assumeprobe` program; each command registers itself from its own file. */
export function buildProgram(): Command {
  const program = new Command("assumeprobe")
    .description("Catch LLM agents inventing facts in tool calls.")
    .version(process.env.npm_package_version ?? "0.1.0")
    .exitOverride()
    // Program options only before the command name: `probes show ID --version N` is show's option.
    .enablePositionalOptions()
    .showHelpAfterError("(run with --help for usage)");
  registerScore(program);
  registerIngest(program);
  registerExport(program);
  registerProbes(program);
  registerLexicon(program);
  registerRescore(program);
  registerLabel(program);
  registerAgreement(program);
  registerFixtures(program);
  registerBulkRun(program);
  registerSetup(program);
  registerDb(program);
  registerRun(program);
  registerFuzzGate(program);
  registerGate(program);
  registerCheck(program);
  registerSuggest(program);
  registerMutationCheck(program);
  return program;
}

/**
 * Runs the CLI. Usage errors exit 2; commands set `process.exitCode` themselves. A closed output
 * (`... | head`) ends any command quietly with the exit code it had so far.
 */
export async function main(argv: string[]): Promise<void> {
  watchOutput(process.stdout);
  watchOutput(process.stderr);
  try {
    await buildProgram().parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? 0 : 2;
      return;
    }
    if (e instanceof OutputClosed) return;
    if (e instanceof UsageError) {
      process.stderr.write(`assumeprobe: ${e.message}\n`);
      process.exitCode = 2;
      return;
    }
    throw e;
  }
}
