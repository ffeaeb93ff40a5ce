/**
 * docs/protect-your-agent.md's two examples are real: each is at most 15 lines, the TypeScript one
 * type-checks against lib/gate and runs in Node, the Python one runs against the exported twin, and
 * both block the same turn with the same words and log it.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { runPython, twinFolder } from "../lib/gate/python/testPython";

const root = resolve(__dirname, "..");
const doc = readFileSync(join(root, "docs", "protect-your-agent.md"), "utf8");
const scratch = mkdtempSync(join(tmpdir(), "assumeprobe-gate-docs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The first fenced block of `lang` under the heading `## title`. */
function example(title: string, lang: string): string {
  const section = doc.split(/^## /m).find((s) => s.startsWith(`${title}\n`));
  const fence = "```";
  const m = section && new RegExp(`${fence}${lang}\\n([\\s\\S]*?)${fence}`).exec(section);
  if (!m) throw new Error(`no ${lang} block under "## ${title}"`);
  return m[1];
}

const STATE = JSON.stringify({
  user_id: { status: "known", value: "u_1", source: "session" },
  resource_id: { status: "known", value: "room_9", source: "catalog" },
  action_date: { status: "unknown" },
});

const TS_PRELUDE = `
interface Calendar { book(user: unknown, room: unknown, date: unknown): Promise<string> }
declare const calendar: Calendar;
declare const worldStateJson: string;
declare function reply(text: string): void;
`;

const GATE_ALIAS = {
  name: "assumeprobe-gate",
  setup(b: import("esbuild").PluginBuild) {
    b.onResolve({ filter: /^assumeprobe\/gate(\/node)?$/ }, (a) => ({
      path: join(root, "lib", "gate", a.path.endsWith("/node") ? "node.ts" : "index.ts"),
    }));
  },
};

const ASKED = { reply: "Ask only for the missing fact(s): action_date", booked: [] };
const RETRY = /^Retry once, then fail the turn \(world state is not JSON: /;

/** The one decision the example logged in `dir`: the blocked booking, redacted. */
function expectLoggedBlock(dir: string, implementation: string): void {
  const lines = readFileSync(join(dir, "logs", "gate.jsonl"), "utf8")
    .trim()
    .split("\n");
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0])).toMatchObject({
    tool: "book_slot",
    redacted: true,
    implementation,
    gate: { verdict: "block", unknown: ["action_date"], next: "ask" },
    world_state: { user_id: { status: "known", value: "[redacted]" } },
  });
}

describe("docs/protect-your-agent.md", () => {
  it("has a TypeScript example of at most 15 lines that type-checks", () => {
    const code = example("TypeScript", "ts");
    expect(code.split("\n").filter((l) => l.trim() !== "").length).toBeLessThanOrEqual(15);
    const file = join(scratch, "example.ts");
    writeFileSync(file, `${TS_PRELUDE}${code}`);
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules", "@types")],
      baseUrl: root,
      paths: { "assumeprobe/gate": ["lib/gate/index.ts"], "assumeprobe/gate/node": ["lib/gate/node.ts"] },
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
  }, 120_000);

  it("whose TypeScript example runs: an unknown date asks for it, nothing is booked, the decision is logged redacted", async () => {
    const dir = join(scratch, "ts-run");
    const out = join(dir, "example.mjs");
    const runtime = `
const booked = [];
const calendar = { book: async (...r) => { booked.push(r); return "ok"; } };
const worldStateJson = process.env.STATE;
const reply = (text) => console.log(JSON.stringify({ reply: text, booked }));
`;
    await build({
      stdin: { contents: `${runtime}${example("TypeScript", "ts")}`, loader: "ts", resolveDir: dir },
      bundle: true,
      format: "esm",
      platform: "node",
      outfile: out,
      plugins: [GATE_ALIAS],
      logLevel: "silent",
    });
    const run = (state: string) =>
      JSON.parse(
        execFileSync(process.execPath, [out], {
          cwd: dir,
          encoding: "utf8",
          env: { ...process.env, STATE: state },
        }),
      );
    expect(run(STATE)).toEqual(ASKED);
    expect(run("{not json").reply).toMatch(RETRY);
    expectLoggedBlock(dir, "typescript");
  }, 120_000);

  it("has a Python example of at most 15 lines that runs the same turn to the same words", () => {
    const code = example("Python", "python");
    expect(code.split("\n").filter((l) => l.trim() !== "").length).toBeLessThanOrEqual(15);
    const twin = twinFolder();
    try {
      const prelude = [
        "import json, sys",
        "booked = []",
        "class Calendar:",
        "    def book(self, **kw):",
        "        booked.append(kw)",
        "calendar = Calendar()",
        "world_state_json = sys.stdin.read()",
        "def reply(text):",
        '    print(json.dumps({"reply": text, "booked": booked}))',
        "",
      ].join("\n");
      const run = (state: string) => JSON.parse(runPython(twin.dir, `${prelude}${code}`, state));
      expect(run(STATE)).toEqual(ASKED);
      expect(run("{not json").reply).toMatch(RETRY);
      expectLoggedBlock(twin.dir, "python");
    } finally {
      twin.remove();
    }
  });
});
