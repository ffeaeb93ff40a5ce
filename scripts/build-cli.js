#!/usr/bin/env node
// Bundles the CLI into dist/cli.mjs (run by `npm ci` through `prepare`, and by `npm start`), so
// `assumeprobe` starts in a fraction of the time tsx needs to compile it. Dependencies stay
// external; bin/assumeprobe.js falls back to tsx when the bundle is older than the sources.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
await build({
  // The CLI and the worker threads db/jobs/threads.ts starts: the writer thread `assumeprobe ingest`
  // starts beside it (db/queries/threadedIngestStore.ts), the thread the dashboard ingests an upload
  // on (db/queries/ingestUpload.ts), and the one its background work runs on (db/jobs/worker.ts:
  // jobs, what-ifs, suggestions).
  entryPoints: {
    cli: join(root, "lib", "cli", "main.ts"),
    "ingest-writer": join(root, "db", "queries", "ingestWriterThread.ts"),
    "ingest-upload": join(root, "db", "queries", "ingestUploadThread.ts"),
    job: join(root, "db", "jobs", "worker.ts"),
  },
  outdir: join(root, "dist"),
  outExtension: { ".js": ".mjs" },
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
});
