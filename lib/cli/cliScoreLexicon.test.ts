import { afterAll, describe, expect, it } from "vitest";
import { openDb } from "../../db/client";
import { saveLexicon } from "../../db/queries/lexicon";
import { cliSandbox } from "./testCli";

const box = cliSandbox("cli-score-lexicon");
afterAll(box.cleanup);
const SLOW = { timeout: 120_000 };

const record = JSON.stringify({ probe: "schedule_window", response: { text: "Which region is u_9182 in?" } });
const labelOf = (line: string | undefined) =>
  (JSON.parse(line ?? "{}") as { fields: Record<string, { label: string }> }).fields.timezone.label;

describe("score with the stored lexicon", SLOW, () => {
  it("uses the database's lexicon; --builtin uses the built-in configuration only", async () => {
    const db = openDb(box.dbPath);
    saveLexicon(db, { timezone: { terms: ["region"], rule: "anywhere" } }, { by: "mira" });
    db.sqlite.close();
    const stored = await box.run(["score"], `${record}\n`);
    expect(stored.code).toBe(0);
    expect(labelOf(stored.lines[0])).toBe("ASK");
    const builtin = await box.run(["score", "--builtin"], `${record}\n`);
    expect(builtin.code).toBe(0);
    expect(labelOf(builtin.lines[0])).toBe("DRIFT");
  });
});
