import { createIngestStore } from "../../db/queries/ingestStore";
import { type IngestSummary, ingestSources } from "../ingest/pipeline";
import { openSource, sourceName, sourceSize } from "../ingest/readSource";
import { DEFAULT_PROBE_ID } from "../probe/builtin";
import { cliDb } from "./db";

/**
 * Ingests one trace file into the dashboard's database, exactly as `assumeprobe ingest FILE` does
 * (same pipeline, same store): the one place `run --ingest` and `fuzz-gate --ingest` meet the
 * ingest code. Records name their run, model and probe; ids make a re-ingest add nothing.
 */
export async function ingestTraceFile(file: string): Promise<IngestSummary> {
  const db = cliDb();
  const summary = await ingestSources(
    [
      {
        file,
        name: sourceName(file),
        get stream() {
          return openSource(file);
        },
        size: sourceSize(file) ?? undefined,
      },
    ],
    { probe: DEFAULT_PROBE_ID, format: "trace", origin: "cli" },
    createIngestStore(db),
  );
  db.sqlite.pragma("optimize");
  return summary;
}
