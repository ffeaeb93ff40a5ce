import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GateDecisionRecordSchema } from "../lib/gate/decisionRecordSchema";
import { buildGate } from "./gateBuild.js";

const root = resolve(__dirname, "..");
const scratch = mkdtempSync(join(tmpdir(), "assumeprobe-gate-build-"));
const out = join(scratch, "dist");
let built: Awaited<ReturnType<typeof buildGate>>;

beforeAll(async () => {
  built = await buildGate(root, out);
}, 180_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What each built file imports, from esbuild's own account of the build. */
function importsOf(file: string): string[] {
  const key = Object.keys(built.metafile.outputs).find((k) => k.endsWith(file));
  if (!key) throw new Error(`no output ${file}`);
  return built.metafile.outputs[key].imports.map((i) => i.path);
}

/** A scenario both runtimes run: a gated call allowed and blocked, an async block, a parse error, a log. */
async function scenario(g: typeof import("../lib/gate/index")) {
  const records: unknown[] = [];
  const book = g.sideEffect(
    ["user_id", "action_date"],
    (s: Record<string, { value?: unknown }>) => s.user_id.value,
    {
      tool: "book_slot",
      log: (r) => records.push(r),
    },
  );
  const allowed = book({ user_id: g.fact.known("u_1"), action_date: g.fact.known("2026-09-08") });
  let blocked: unknown;
  try {
    book({ user_id: g.fact.known("u_1"), action_date: g.fact.conflict("Tue") });
  } catch (e) {
    const err = e as InstanceType<typeof g.AssumptionError>;
    blocked = {
      isError: e instanceof g.AssumptionError,
      fields: err.fields,
      next: err.next,
      step: err.step.message,
    };
  }
  const later = g.sideEffect(["a"], async () => "ran");
  const rejected = await later({}).then(
    () => "ran",
    (e: Error) => e.message,
  );
  const parsed = g.parseWorldState('{"a": {"status": "known", "value": NaN}}');
  return { allowed, blocked, rejected, parsedOk: parsed.ok, table: g.DECISION_TABLE.length, records };
}

const EXPECTED = {
  allowed: "u_1",
  blocked: {
    isError: true,
    fields: ["action_date"],
    next: "stop",
    step: "Show both values and stop: action_date",
  },
  rejected: "blocked side effect; unknown: [a]; conflict: []",
  parsedOk: false,
  table: 5,
};

describe("the built gate entries", () => {
  it("import nothing but their shared chunk; the node entry adds node:fs and node:path only", () => {
    const gateImports = importsOf("gate.mjs");
    expect(gateImports.length).toBeGreaterThan(0);
    expect(gateImports.every((p) => /^(dist\/|.*\/)?chunks\/chunk-[A-Z0-9]+\.mjs$/.test(p))).toBe(true);
    for (const chunk of Object.keys(built.metafile.outputs).filter((k) => k.includes("/chunks/")))
      expect(built.metafile.outputs[chunk].imports).toEqual([]);
    expect(
      importsOf("node.mjs")
        .filter((p) => !p.includes("/chunks/"))
        .sort(),
    ).toEqual(["node:fs", "node:path"]);
    const text = readFileSync(join(out, "gate.mjs"), "utf8");
    expect(text).not.toMatch(/\bzod\b|require\(|process\.|Buffer|node:/);
  });

  it("declare their types with .js specifiers, importing no package", () => {
    const index = readFileSync(join(out, "types", "index.d.ts"), "utf8");
    expect(index).toContain('from "./sideEffect.js"');
    for (const file of built.types) {
      const specs = [
        ...readFileSync(file, "utf8").matchAll(/from\s+["']([^"']+)["']|import\(["']([^"']+)["']\)/g),
      ];
      for (const m of specs) expect(m[1] ?? m[2]).toMatch(/^\.\/[A-Za-z]+\.js$/);
    }
  });

  it("run in Node: the same behaviour as the source", async () => {
    const g = await import(pathToFileURL(join(out, "gate.mjs")).href);
    const result = await scenario(g);
    expect(result).toMatchObject(EXPECTED);
    expect(result).toEqual(
      await scenario(await import("../lib/gate/index")).then((r) => ({ ...r, records: result.records })),
    );
    for (const r of result.records) expect(GateDecisionRecordSchema.safeParse(r).error).toBeUndefined();
  });

  it("run in Chromium, with no Node API and no secure context (so no crypto.randomUUID)", async () => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    });
    try {
      const page = await browser.newPage();
      await page.route("http://gate.test/**", (route) => {
        const path = new URL(route.request().url()).pathname;
        if (path === "/")
          return route.fulfill({ contentType: "text/html", body: "<!doctype html><title>gate</title>" });
        return route.fulfill({ contentType: "text/javascript", body: readFileSync(join(out, path)) });
      });
      await page.goto("http://gate.test/");
      const errors: string[] = [];
      page.on("pageerror", (e) => errors.push(e.message));
      const result = await page.evaluate(`(async () => {
        const g = await import("/gate.mjs");
        const scenario = ${scenario.toString()};
        const r = await scenario(g);
        return { ...r, secure: window.isSecureContext, hasProcess: typeof process !== "undefined" };
      })()`);
      expect(result).toMatchObject({ ...EXPECTED, secure: false, hasProcess: false });
      const records = (result as { records: { id: string }[] }).records;
      expect(records).toHaveLength(2);
      for (const r of records) expect(GateDecisionRecordSchema.safeParse(r).error).toBeUndefined();
      expect(new Set(records.map((r) => r.id)).size).toBe(2);
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);

  it("refuse to build when an entry reaches a package: the module must run with nothing installed", async () => {
    const fake = join(scratch, "fake");
    mkdirSync(join(fake, "lib", "gate"), { recursive: true });
    symlinkSync(join(root, "node_modules"), join(fake, "node_modules"));
    writeFileSync(
      join(fake, "lib", "gate", "index.ts"),
      'import { z } from "zod";\nexport const s = z.string();\n',
    );
    writeFileSync(join(fake, "lib", "gate", "node.ts"), "export const n = 1;\n");
    await expect(buildGate(fake, join(fake, "dist"))).rejects.toThrow(
      /the gate entries must use lib\/gate only, but they reach: .*node_modules\/zod/,
    );
  }, 120_000);
});
