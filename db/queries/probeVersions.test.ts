import { afterAll, describe, expect, it } from "vitest";
import { variant } from "../../lib/probe/testProbes";
import { ingestText, tempDb } from "../testing/ingest";
import { getProbe, listProbeVersions, ProbeEditError, saveProbe, saveProbeConfiguration } from "./probes";

const { db, cleanup } = tempDb("probe-versions");
afterAll(cleanup);

const world = (user: string) =>
  variant({ id: "edited_window", user, ask_terms: { timezone: ["timezone"] }, bait: ["UTC"] });
const inline = (probe: object, id: string, text = "Which region?") =>
  JSON.stringify({ id, probe, response: { text, tool_calls: [] } });
const traceOf = (ext: string) =>
  db.sqlite
    .prepare("SELECT probe_version AS v, labels FROM traces WHERE ext_id = ? ORDER BY id DESC LIMIT 1")
    .get(ext) as { v: number; labels: string };

describe("probe versions", () => {
  it("an inline definition equal to a stored version reuses it without making it current", async () => {
    const v1 = world("Schedule it at 09:00.");
    const v2 = world("Schedule it at 10:00.");
    expect(saveProbe(db, v1, "file:a.json")).toMatchObject({ version: 1, created: true });
    expect(saveProbe(db, v2, "file:a.json")).toMatchObject({ version: 2, created: true });
    await ingestText(db, "r.jsonl", `${inline(v1, "old")}\n`, { run: "versions" });
    expect(traceOf("old").v).toBe(1);
    expect(getProbe(db, "edited_window")?.version).toBe(2);
    // A probe file (not a record) equal to an old version is a new version, as before.
    expect(saveProbe(db, v1, "file:a.json")).toMatchObject({ version: 3, created: true });
  });

  it("a configuration edited in the product stays current whatever later records bring", async () => {
    const before = getProbe(db, "edited_window");
    const edited = saveProbeConfiguration(
      db,
      "edited_window",
      { ask_terms: { timezone: ["timezone", " Region "] }, bait: ["UTC", "utc", "GMT"], clarify_tool: null },
      "mira",
    );
    expect(edited).toMatchObject({ version: (before?.version ?? 0) + 1, created: true });
    expect(edited.probe.ask_terms).toEqual({ timezone: ["timezone", "region"] });
    expect(edited.probe.bait).toEqual(["UTC", "GMT"]);
    expect(listProbeVersions(db, "edited_window")[0]).toMatchObject({ origin: "edit", savedBy: "mira" });
    const editedVersion = edited.version;

    // A record whose world is the current one, with other terms: the current version scores it.
    await ingestText(db, "r2.jsonl", `${inline(world("Schedule it at 09:00."), "same-world")}\n`, {
      run: "versions",
    });
    expect(traceOf("same-world")).toEqual({
      v: editedVersion,
      labels: '{"timezone":"ASK","severity":"DRIFT"}',
    });
    expect(getProbe(db, "edited_window")?.version).toBe(editedVersion);

    // A record with another world: a new version with that world and the edited configuration.
    const moved = world("Schedule it at 11:00.");
    await ingestText(db, "r3.jsonl", `${inline(moved, "new-world")}\n`, { run: "versions" });
    const now = getProbe(db, "edited_window");
    expect(now?.version).toBe(editedVersion + 1);
    expect(now?.probe.user).toBe("Schedule it at 11:00.");
    expect(now?.probe.ask_terms).toEqual({ timezone: ["timezone", "region"] });
    expect(traceOf("new-world")).toEqual({
      v: editedVersion + 1,
      labels: '{"timezone":"ASK","severity":"DRIFT"}',
    });

    // A probe file with another world keeps it too, and says so.
    const file = saveProbe(db, world("Schedule it at 12:00."), "file:b.json");
    expect(file).toMatchObject({ created: true, keptEditedConfiguration: true });
    expect(file.probe.ask_terms).toEqual({ timezone: ["timezone", "region"] });
    // The same world again with its old configuration changes nothing.
    expect(saveProbe(db, world("Schedule it at 12:00."), "file:b.json")).toMatchObject({
      version: file.version,
      created: false,
    });
  });

  it("an edit equal to the current configuration saves nothing; bad edits save nothing", () => {
    const cur = getProbe(db, "edited_window");
    if (!cur) throw new Error("no probe");
    const same = saveProbeConfiguration(
      db,
      "edited_window",
      { ask_terms: cur.probe.ask_terms, bait: cur.probe.bait, clarify_tool: null },
      "jon",
    );
    expect(same).toMatchObject({ version: cur.version, created: false });
    expect(() =>
      saveProbeConfiguration(db, "nope", { ask_terms: {}, bait: [], clarify_tool: null }, "jon"),
    ).toThrow(ProbeEditError);
    expect(() =>
      saveProbeConfiguration(db, "edited_window", { ask_terms: {}, bait: [], clarify_tool: null }, " "),
    ).toThrow(/who saves/);
    expect(getProbe(db, "edited_window")?.version).toBe(cur.version);
  });
});
