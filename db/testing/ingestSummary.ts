import type Database from "better-sqlite3";
import { expect } from "vitest";
import type { IngestSummary } from "../../lib/ingest/pipeline";
import { inconsistencies } from "./ingest";

/**
 * A check for ingest summaries: every summary adds up (records = ingested + duplicates +
 * rejected, one error per rejected record) and the database stays consistent after it.
 */
export function summaryChecker(sqlite: Database.Database): (s: IngestSummary) => IngestSummary {
  return (s) => {
    expect(s.records).toBe(s.ingested + s.duplicates + s.rejected);
    expect(s.errors).toHaveLength(s.rejected);
    expect(inconsistencies(sqlite)).toEqual([]);
    return s;
  };
}
