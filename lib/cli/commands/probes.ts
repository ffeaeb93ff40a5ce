import { readFileSync } from "node:fs";
import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { getProbe, getProbeVersion, listProbes, saveProbe } from "../../../db/queries/probes";
import { checkReadable, SourceError } from "../../ingest/readSource";
import { compileProbe } from "../../probe/compile";
import { describeIssues, ProbeSchema } from "../../probe/schema";
import { cliDb } from "../db";
import { LineWriter } from "../output";
import { positiveInt, UsageError } from "../usage";
import { registerProbesEdit } from "./probesEdit";

/** Probes in a file: one JSON object, an array of them, or JSONL. */
export function readProbeFile(path: string): unknown[] {
  let text: string;
  try {
    // The same messages as ingest's: "no such file", "is a directory, not a file", "cannot read (CODE)".
    checkReadable(path);
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (e instanceof SourceError) throw new UsageError(e.message);
    throw new UsageError(`${path}: cannot read (${(e as NodeJS.ErrnoException).code})`);
  }
  text = text.replace(/^\uFEFF/, "");
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v : [v];
  } catch {
    const out: unknown[] = [];
    const lines = text.split(/\r?\n/);
    lines.forEach((line, i) => {
      if (line.trim() === "") return;
      try {
        out.push(JSON.parse(line));
      } catch (e) {
        throw new UsageError(`${path} line ${i + 1}: not JSON: ${(e as Error).message}`);
      }
    });
    return out;
  }
}

/**
 * `probes add`: stores every probe of a file (a changed one gets a new version); returns one line
 * per probe saying what happened. The demo adds its probe's versions through this too.
 */
export function addProbeFile(db: Db, file: string): string[] {
  const items = readProbeFile(file);
  if (items.length === 0) throw new UsageError(`${file}: holds no probe`);
  const parsed = items.map((item, i) => {
    const r = ProbeSchema.safeParse(item);
    if (!r.success) throw new UsageError(`${file}: probe ${i + 1}: ${describeIssues(r.error)}`);
    return r.data;
  });
  return parsed.map((p) => {
    const { version, created, keptEditedConfiguration } = saveProbe(
      db,
      p,
      `file:${file.split(/[\\/]/).pop()}`,
    );
    const kept = keptEditedConfiguration ? " (keeping the scoring configuration edited in the product)" : "";
    return `${p.id}: ${created ? (version === 1 ? "added" : `new version ${version}`) : `unchanged (version ${version})`}${kept}`;
  });
}

export function registerProbes(program: Command): void {
  const probes = program.command("probes").description("List, add, show and edit probes.");
  registerProbesEdit(probes);
  probes
    .command("list")
    .description("Every stored probe with its current version.")
    .option("--json", "one JSON line per probe")
    .action(async (opts: { json?: boolean }) => {
      const db = cliDb();
      const out = new LineWriter(process.stdout);
      for (const p of listProbes(db)) {
        const fields = compileProbe(p.probe).fields;
        await out.line(
          opts.json
            ? JSON.stringify({
                id: p.probe.id,
                version: p.version,
                builtin: p.builtin,
                tool: p.probe.tool?.name ?? null,
                fields,
              })
            : `${p.probe.id}\tv${p.version}${p.builtin ? "\tbuilt-in" : "\t"}\ttool ${p.probe.tool?.name ?? "-"}\tfields ${fields.join(",") || "-"}`,
        );
      }
      await out.flush();
    });
  probes
    .command("add")
    .description(
      "Add probes from a JSON file (an object, an array, or JSONL); a changed probe gets a new version.",
    )
    .argument("<file>", "probe file")
    .action((file: string) => {
      for (const line of addProbeFile(cliDb(), file)) process.stdout.write(`${line}\n`);
    });
  probes
    .command("show")
    .description("Print a probe's definition as JSON.")
    .argument("<id>", "probe id")
    .option("--version <n>", "a past version", positiveInt("--version"))
    .action((id: string, opts: { version?: number }) => {
      const db = cliDb();
      const probe = opts.version ? getProbeVersion(db, id, opts.version) : getProbe(db, id)?.probe;
      if (!probe)
        throw new UsageError(`unknown probe "${id}"${opts.version ? ` version ${opts.version}` : ""}`);
      process.stdout.write(`${JSON.stringify(probe, null, 2)}\n`);
    });
}
