/**
 * `npm pack` builds the gate and puts it in the tarball, and the tarball's `assumeprobe/gate` runs with
 * no dependency installed: packed from a copy of the project (so this checkout's dist/ is never rebuilt
 * under other tests), extracted into a scratch node_modules, imported by name from a plain .mjs file, and
 * its declarations type-check a consumer under both `nodenext` and `bundler` resolution.
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(__dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "assumeprobe-gate-pack-"));
const app = join(scratch, "app");
const installed = join(app, "node_modules", "assumeprobe");
let packed: string[] = [];

beforeAll(() => {
  // The project as a fresh clone would have it (tracked files and new ones not ignored), without dist/.
  const copy = join(scratch, "project");
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f !== "");
  for (const f of files) {
    mkdirSync(dirname(join(copy, f)), { recursive: true });
    try {
      cpSync(join(root, f), join(copy, f));
    } catch (e) {
      if ((e as { code?: string }).code !== "ENOENT") throw e; // deleted in the work tree, not yet committed
    }
  }
  symlinkSync(join(root, "node_modules"), join(copy, "node_modules"));
  const out = execFileSync("npm", ["pack", "--json", "--pack-destination", scratch], {
    cwd: copy,
    encoding: "utf8",
    env: { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false" },
    maxBuffer: 64 * 1024 * 1024,
  });
  const [info] = JSON.parse(out) as [{ filename: string; files: { path: string }[] }];
  packed = info.files.map((f) => f.path);
  mkdirSync(installed, { recursive: true });
  execFileSync("tar", ["-xzf", join(scratch, info.filename), "-C", installed, "--strip-components=1"]);
}, 600_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const CHECK = `
import { readFileSync } from "node:fs";
import { AssumptionError, fact, parseWorldState, sideEffect, DECISION_TABLE } from "assumeprobe/gate";
import { fileSink } from "assumeprobe/gate/node";

const log = fileSink("logs/gate.jsonl", { redact: true, run: "agent" });
const book = sideEffect(["user_id", "action_date"], function book_slot(state) { return state.user_id.value; }, { log });
const parsed = parseWorldState('{"user_id": {"status": "known", "value": "u_1"}}', ["action_date"]);
let blocked;
try { book(parsed.state); } catch (e) { blocked = { isError: e instanceof AssumptionError, fields: e.fields, next: e.next }; }
const allowed = book({ user_id: fact.known("u_1"), action_date: fact.known("2026-09-08") });
const lines = readFileSync("logs/gate.jsonl", "utf8").trim().split("\\n").map((l) => JSON.parse(l));
console.log(JSON.stringify({ blocked, allowed, rows: DECISION_TABLE.length, log: lines.map((l) => [l.gate.verdict, l.run, l.world_state.user_id.value]) }));
`;

const CONSUMER = `
import { type GateDecisionRecord, type WorldState, AssumptionError, fact, sideEffect } from "assumeprobe/gate";
import { fileSink } from "assumeprobe/gate/node";

const records: GateDecisionRecord[] = [];
const book = sideEffect(["user_id"], (state: WorldState, note: string) => \`\${String(state.user_id.value)} \${note}\`, {
  log: (r) => records.push(r),
});
const text: string = book({ user_id: fact.known("u_1") }, "hi");
const sink = fileSink("gate.jsonl", { redact: true });
const err = new AssumptionError(["a"], ["a"], []);
const next: "ask" | "stop" = err.next;
export { text, sink, next };
`;

/** Type-checks `files` against the installed package's declarations; tsc's output (empty when clean). */
function tsc(resolution: "nodenext" | "bundler", files: Record<string, string>): string {
  const dir = join(app, `types-${resolution}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        lib: ["ES2022"],
        module: resolution === "nodenext" ? "NodeNext" : "ESNext",
        moduleResolution: resolution,
        types: [],
        skipLibCheck: false,
      },
      files: Object.keys(files),
    }),
  );
  writeFileSync(join(dir, "package.json"), '{"type": "module"}');
  try {
    execFileSync(join(root, "node_modules", ".bin", "tsc"), ["-p", "."], { cwd: dir, encoding: "utf8" });
    return "";
  } catch (e) {
    return (e as { stdout: string }).stdout;
  }
}

describe("the packed package", () => {
  it("holds the built gate entries and their types, and no test files", () => {
    for (const f of [
      "dist/gate/gate.mjs",
      "dist/gate/node.mjs",
      "dist/gate/types/index.d.ts",
      "dist/gate/types/node.d.ts",
    ])
      expect(packed).toContain(f);
    expect(packed.some((f) => /^dist\/gate\/chunks\/chunk-.*\.mjs$/.test(f))).toBe(true);
    expect(packed.filter((f) => f.endsWith(".test.ts"))).toEqual([]);
    expect(readdirSync(installed)).not.toContain("node_modules");
  });

  it("runs `assumeprobe/gate` and `assumeprobe/gate/node` by name from a plain .mjs file, nothing installed", () => {
    writeFileSync(join(app, "check.mjs"), CHECK);
    const out = execFileSync(process.execPath, ["check.mjs"], { cwd: app, encoding: "utf8" });
    expect(JSON.parse(out)).toEqual({
      blocked: { isError: true, fields: ["action_date"], next: "ask" },
      allowed: "u_1",
      rows: 5,
      log: [
        ["block", "agent", "[redacted]"],
        ["allow", "agent", "[redacted]"],
      ],
    });
    expect(readFileSync(join(app, "logs", "gate.jsonl"), "utf8")).not.toContain("u_1");
  });

  it("types a consumer under nodenext and bundler resolution, and its mistakes are errors", () => {
    const wrong = `${CONSUMER}\nconst n: number = book({}, "x");\nsideEffect("user_id", () => 1);\nexport { n };\n`;
    for (const resolution of ["nodenext", "bundler"] as const) {
      const output = tsc(resolution, { "consumer.ts": CONSUMER, "wrong.ts": wrong });
      const errors = output.split("\n").filter((l) => /^\S/.test(l)); // continuation lines are indented
      // The declarations and the right consumer are clean; each mistake in the wrong one is caught.
      expect(
        errors.filter((l) => !l.startsWith("wrong.ts(")),
        output,
      ).toEqual([]);
      expect(errors.map((l) => l.replace(/^wrong\.ts\(\d+,\d+\): (error TS\d+).*$/, "$1"))).toEqual([
        "error TS2322",
        "error TS2345",
      ]);
    }
  }, 300_000);
});
