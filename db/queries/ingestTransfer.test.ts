import { describe, expect, it } from "vitest";
import { prepareError, prepareTrace } from "../../lib/ingest/prepare";
import { interpretRecord } from "../../lib/ingest/traceRecord";
import { builtinProbes, DEFAULT_PROBE_ID } from "../../lib/probe/builtin";
import { traceLine } from "../testing/ingest";
import { packError, packTrace, unpackError, unpackTrace } from "./ingestTransfer";

const probes = builtinProbes();

function prepared(line: string, bytes: Buffer) {
  const r = interpretRecord(JSON.parse(line), { probe: DEFAULT_PROBE_ID }, (id) => probes.get(id));
  if (!r.ok) throw new Error(r.reason);
  const probe = r.record.probe;
  return prepareTrace(r.record, {
    runName: "r",
    defaultRun: "r",
    model: "m",
    runParams: { temperature: 0 },
    probe,
    probeVersion: 1,
    file: "f.jsonl",
    source: "f.jsonl",
    line: 7,
    bytes,
  });
}

describe("ingestTransfer", () => {
  it("brings a prepared trace through a structured clone unchanged, byte arrays as Buffers", () => {
    const line = traceLine({ id: "x", human: { timezone: "ASK" } }, { timezone: "UTC" });
    // A Buffer viewing part of a larger pool, as the line splitter hands them over.
    const pool = Buffer.from(`padding${line}padding`);
    const bytes = pool.subarray(7, 7 + Buffer.byteLength(line));
    const invalid = Buffer.concat([bytes, Buffer.from([0xff])]);
    for (const t of [prepared(line, bytes), prepared(line, invalid)]) {
      const back = unpackTrace(structuredClone(packTrace(t)));
      expect(back).toEqual(t);
      expect(Buffer.isBuffer(back.hash) && Buffer.isBuffer(back.identity)).toBe(true);
      expect(typeof t.original === "string" || Buffer.isBuffer(back.original)).toBe(true);
    }
  });

  it("brings a prepared error through a structured clone unchanged", () => {
    const e = prepareError("r", "f.jsonl", "f.jsonl", 3, "not JSON", Buffer.from("{oops"));
    const back = unpackError(structuredClone(packError(e)));
    expect(back).toEqual(e);
    expect(Buffer.isBuffer(back.hash)).toBe(true);
  });
});
