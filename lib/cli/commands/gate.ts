import type { Command } from "commander";
import { pythonGateModule } from "../../gate/python/module";
import { packageVersion } from "../../packageVersion";
import { UsageError } from "../usage";

export function registerGate(program: Command): void {
  const gate = program.command("gate").description("The fail-closed gate, for use in your own agent.");
  gate
    .command("export")
    .description("Print the gate as a single-file module for another language (standard library only).")
    .option("--python", "a Python 3.9+ module: assumeprobe gate export --python > assumeprobe_gate.py")
    .action((opts: { python?: boolean }) => {
      if (!opts.python)
        throw new UsageError(
          "say which language: --python (TypeScript and JavaScript import assumeprobe/gate instead)",
        );
      process.stdout.write(pythonGateModule(packageVersion()));
    });
}
