import { afterAll, describe, expect, it } from "vitest";
import { cliSandbox, jsonl, runCli } from "./testCli";

const box = cliSandbox("cli-ingest-warnings");
afterAll(box.cleanup);

const records = [
  { id: "w1", run: "warned", label: "ASKED", response: { text: "Which timezone are you in?" } },
  { id: "w2", run: "warned", label: "ask", response: { text: "Which timezone are you in?" } },
  { id: "w3", run: "warned", response: { text: "Done." } },
];

describe("ingest warnings", { timeout: 120_000 }, () => {
  it.each([
    ["1", "on the ingest thread"],
    ["0", "on one thread"],
  ])(
    "lists a recorded label outside the vocabulary with its line, and keeps the record (%s: %s)",
    async (thread) => {
      const file = box.file(
        `labels-${thread}.jsonl`,
        jsonl(records.map((r) => ({ ...r, run: `warned-${thread}` }))),
      );
      const env = { ASSUMEPROBE_DB: box.dbPath, ASSUMEPROBE_INGEST_THREAD: thread };
      const plain = await runCli(["ingest", file, "--no-progress"], env);
      expect([plain.code, plain.stderr]).toEqual([0, ""]);
      expect(plain.stdout).toContain("3 ingested");
      expect(plain.stdout).toContain("warnings (the records were kept):");
      expect(plain.stdout).toMatch(/line 1: recorded label "ASKED" of timezone is not one of ASK, OMIT/);
      expect(plain.stdout).not.toMatch(/line 2:/);
      const again = await runCli(["ingest", file, "--json", "--no-progress"], env);
      const s = JSON.parse(again.lines.at(-1) ?? "");
      expect(s.warnings).toEqual([
        expect.objectContaining({ line: 1, reason: expect.stringContaining('"ASKED"') }),
      ]);
    },
  );
});
