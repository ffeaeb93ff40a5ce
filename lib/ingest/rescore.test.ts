import { describe, expect, it } from "vitest";
import { scheduleWindow } from "../probe/testProbes";
import { prepareTrace } from "./prepare";
import { rescoreStored, type StoredTrace } from "./rescore";
import { interpretRecord } from "./traceRecord";

const SW = scheduleWindow();

/** A trace as the store keeps it, from a record line, scored by today's ingest. */
function stored(line: string | Buffer, model = "m"): StoredTrace {
  const bytes = typeof line === "string" ? Buffer.from(line) : line;
  const r = interpretRecord(
    JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, "")),
    { probe: SW.id },
    () => SW,
  );
  if (!r.ok) throw new Error(r.reason);
  const p = prepareTrace(r.record, {
    runName: "r",
    defaultRun: "r",
    model,
    runParams: null,
    probe: SW,
    probeVersion: 1,
    file: "f",
    source: "f",
    line: 1,
    bytes,
  });
  return {
    id: 1,
    probeId: SW.id,
    form: p.form,
    extId: p.extId,
    model,
    original: p.original,
    result: p.result,
    response: p.response,
  };
}

const PAYLOAD = {
  object: "chat.completion",
  model: "m",
  choices: [{ message: { content: null, function_call: { name: "", arguments: "" } } }],
};

describe("rescoreStored", () => {
  it("gives what an ingest gives today: unchanged for a trace stored by this version", () => {
    for (const line of [
      JSON.stringify({ id: "a", raw: PAYLOAD }),
      `\uFEFF${JSON.stringify({ id: "b", response: { text: "Which timezone?", tool_calls: [] } })}`,
      JSON.stringify({ label: "ASK", trace: { text: "which zone?", tool_call: null } }),
      JSON.stringify(PAYLOAD),
      JSON.stringify({ raw: { candidates: [] } }, null, 2),
    ]) {
      const t = stored(line);
      const r = rescoreStored(t, SW);
      expect(r.ok && !r.changed && !r.responseChanged, line).toBe(true);
    }
  });

  it("reads a record that is not valid UTF-8 as the ingest did", () => {
    const bytes = Buffer.concat([
      Buffer.from('{"id":"x","response":{"text":"zone \xff?'),
      Buffer.from([0xff]),
      Buffer.from('","tool_calls":[]}}'),
    ]);
    const t = stored(bytes);
    expect(Buffer.isBuffer(t.original)).toBe(true);
    const r = rescoreStored(t, SW);
    expect(r.ok && !r.changed).toBe(true);
  });

  it("says what changed when the stored result is an older scorer's", () => {
    const t = stored(JSON.stringify({ raw: PAYLOAD }));
    const old = { ...t, result: t.result.replace('"flags":[]', '"flags":["ask_and_call"]') };
    const r = rescoreStored(old, SW);
    expect(r.ok && r.changed && !r.responseChanged).toBe(true);
    const oldResponse = {
      ...t,
      response: JSON.stringify({ text: null, tool_calls: [{ name: "", arguments: "" }], fenced: false }),
    };
    const r2 = rescoreStored(oldResponse, SW);
    expect(r2.ok && r2.changed && r2.responseChanged).toBe(true);
  });

  it("gives a reason, never a throw, for an original that no longer reads", () => {
    const t = stored(JSON.stringify({ raw: PAYLOAD }));
    expect(rescoreStored({ ...t, original: "{cut" }, SW)).toMatchObject({ ok: false });
    expect(rescoreStored({ ...t, original: '{"nothing": 1}' }, SW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("no longer reads"),
    });
    const w2c = JSON.stringify({ uuid: "u", question: "q", answers: {} });
    expect(rescoreStored({ ...t, original: w2c, extId: "u:tool_call" }, SW)).toMatchObject({
      ok: false,
      reason: expect.stringContaining("When2Call"),
    });
  });

  it("flags a trace misread by one key name (a Langfuse export as {label, trace}) instead of an empty answer", () => {
    const langfuse = JSON.stringify({
      trace: { id: "t-1", name: "agent", input: { q: "book" }, output: { content: "Booked." } },
      observations: [{ id: "o-1", traceId: "t-1", type: "GENERATION" }],
    });
    // What an older version stored: the `trace` read as the seed's shape, an empty answer, no flag.
    const old = { ...stored(JSON.stringify({ trace: { text: null } })), original: langfuse };
    expect(JSON.parse(old.result).flags).toEqual([]);
    const r = rescoreStored(old, SW);
    expect(r.ok && r.changed && r.responseChanged).toBe(true);
    if (!r.ok) return;
    expect(JSON.parse(r.scored.result).flags).toEqual(["unrecognized_payload"]);
    expect(JSON.parse(r.scored.response)).toEqual({
      text: null,
      tool_calls: [],
      fenced: false,
      unrecognized: true,
    });
    // The same for a `response` holding none of text, tool_call, tool_calls.
    const resp = { ...old, form: "trace", original: JSON.stringify({ response: { status: 200 } }) };
    const r2 = rescoreStored(resp, SW);
    expect(r2.ok && JSON.parse(r2.scored.result).flags).toEqual(["unrecognized_payload"]);
  });
});
