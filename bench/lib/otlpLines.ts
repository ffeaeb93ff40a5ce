import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./util";

/**
 * OTLP JSON Lines for the ingest benchmark: the OpenLLMetry line of fixtures/testdata/otel (one
 * `TracesData` of three chat spans, written with the OpenTelemetry JS SDK), again and again with
 * fresh span and trace ids, until the file reaches `bytes`.
 */
export function* otlpLinesUntil(bytes: number): Generator<string> {
  const [line] = readFileSync(
    join(ROOT, "fixtures", "testdata", "otel", "file-exporter.otlp.jsonl"),
    "utf8",
  ).split("\n");
  let size = 0;
  let n = 0;
  let traces = 0;
  while (size < bytes) {
    // Fresh trace ids too: copies of one trace would make one agent turn of millions of spans.
    const l = line
      .replace(/"spanId":"[0-9a-f]{16}"/g, () => `"spanId":"${(n++).toString(16).padStart(16, "0")}"`)
      .replace(/"traceId":"[0-9a-f]{32}"/g, () => `"traceId":"${(traces++).toString(16).padStart(32, "0")}"`);
    yield l;
    size += Buffer.byteLength(l) + 1;
  }
}
