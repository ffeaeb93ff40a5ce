/**
 * The one way the CLI and the dashboard start a worker thread: the bundle's dist/NAME.mjs
 * (scripts/build-cli.js builds it beside the CLI) when it is at least as new as the sources, else,
 * while the code is being edited, a small bootstrap that registers tsx in the thread before
 * importing the TypeScript source. Paths come from the project folder, so the CLI and the
 * dashboard's server start the same files.
 */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type ResourceLimits, Worker } from "node:worker_threads";
import { projectRoot } from "../../lib/root";
import { cliBundleIsFresh } from "../../scripts/cliBundle.js";

const SOURCES = {
  // The writer thread `assumeprobe ingest` starts beside it, and the one an upload is ingested on.
  "ingest-writer": ["db", "queries", "ingestWriterThread.ts"],
  "ingest-upload": ["db", "queries", "ingestUploadThread.ts"],
  // The dashboard's background work: a job (a bulk relabel, a bulk add to a fixture set, a re-score) or its calls (a what-if,
  // suggestions), worker.ts.
  job: ["db", "jobs", "worker.ts"],
} as const;

export type ThreadEntry = keyof typeof SOURCES;

export function startThread(name: ThreadEntry, workerData: unknown, resourceLimits?: ResourceLimits): Worker {
  const root = projectRoot();
  if (cliBundleIsFresh(root))
    return new Worker(join(/*turbopackIgnore: true*/ root, "dist", `${name}.mjs`), {
      workerData,
      resourceLimits,
    });
  const req = createRequire(join(/*turbopackIgnore: true*/ root, "package.json"));
  const api = pathToFileURL(req.resolve("tsx/esm/api").replace(/\.cjs$/, ".mjs")).href;
  const source = pathToFileURL(join(/*turbopackIgnore: true*/ root, ...SOURCES[name])).href;
  const boot = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}
