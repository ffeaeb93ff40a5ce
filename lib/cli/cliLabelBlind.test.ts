import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client";
import { createRound } from "../../db/queries/rounds";
import { writeSync } from "../../db/write";
import { ARGS, cliSandbox, jsonl } from "./testCli";

// `assumeprobe label --blind --round`: scripted blind annotation through the round's own rules.

const box = cliSandbox("cli-label-blind");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };
let trace = "";
beforeAll(async () => {
  const file = box.file(
    "b.jsonl",
    jsonl([
      { id: "q", run: "lab", model: "m", response: { text: "Which region is u_9182 in?" } },
      {
        id: "u",
        run: "lab",
        model: "m",
        response: { tool_call: { name: "schedule_window", arguments: { ...ARGS, timezone: "UTC" } } },
        human: { timezone: "COPY" },
      },
    ]),
  );
  expect((await box.run(["ingest", file, "--json", "--no-progress"])).code).toBe(0);
  const db = openDb(box.dbPath);
  writeSync(db, () =>
    createRound(db, { name: "pilot", scopeKind: "run", scopeValue: "lab", createdBy: "lead" }),
  );
  db.sqlite.close();
  const exp = await box.run(["export", "lab"]);
  trace = String(JSON.parse(exp.lines.find((l) => JSON.parse(l).id === "q") as string).trace_id);
}, 180_000);

const label = (args: string[]) => box.run(["label", trace, ...args]);
const stored = () =>
  box.query<{ reviewer: string; label: string; kind: string; round_id: number }>(
    "SELECT reviewer, label, kind, round_id FROM reviews WHERE field = 'timezone' ORDER BY id",
  );

describe("assumeprobe label --blind", SLOW, () => {
  it("two reviewers write blind reviews that never conflict; the field is disputed, no human label in export", async () => {
    const a = await label(["timezone=ASK", "--reviewer", "ana", "--blind", "--round", "pilot"]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.lines[0]).reviews[0]).toMatchObject({
      field: "timezone",
      label: "ASK",
      reviewer: "ana",
    });
    const b = await label(["timezone=DRIFT", "--reviewer", "bo", "--blind", "--round", "1"]);
    expect(b.code).toBe(0);
    expect(stored()).toEqual([
      { reviewer: "ana", label: "ASK", kind: "blind", round_id: 1 },
      { reviewer: "bo", label: "DRIFT", kind: "blind", round_id: 1 },
    ]);
    const exp = await box.run(["export", "lab"]);
    const line = exp.lines.map((l) => JSON.parse(l)).find((l) => l.id === "q");
    expect(line.human.timezone).toBeUndefined();
  });

  it("refuses a third reviewer past N, and a second blind review of one reviewer, writing nothing (exit 1)", async () => {
    const c = await label(["timezone=OMIT", "--reviewer", "cy", "--blind", "--round", "pilot"]);
    expect(c.code).toBe(1);
    expect(c.stderr).toContain("already has 2 reviews");
    const again = await label(["timezone=OMIT", "--reviewer", "ana", "--blind", "--round", "pilot"]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already reviewed");
    expect(stored()).toHaveLength(2);
  });

  it("says what is wrong with a blind call: no round, an unknown round, a clear", async () => {
    expect((await label(["timezone=ASK", "--reviewer", "x", "--blind"])).stderr).toContain(
      "--blind needs --round",
    );
    expect((await label(["timezone=ASK", "--reviewer", "x", "--blind", "--round", "nope"])).stderr).toContain(
      'there is no round "nope"',
    );
    expect((await label(["timezone=-", "--reviewer", "x", "--blind", "--round", "pilot"])).stderr).toContain(
      "cannot clear",
    );
  });
});
