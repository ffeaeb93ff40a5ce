import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { originalOf, registerOriginalFunctions } from "../../db/queries/originals";

const ROOT = join(import.meta.dirname, "..", "..");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Non-empty stdout lines. */
  lines: string[];
}

/** A stored trace as the CLI tests read it back. */
export interface StoredRow {
  ext_id: string | null;
  form: string;
  model: string;
  payload_model: string | null;
  response: string;
  original: string;
  started_at: string | null;
  latency_ms: number | null;
  line: number;
  run: string;
}

/** A temp folder for one test file: its database path and a helper to write files into it. */
export function cliSandbox(prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), `assumeprobe-${prefix}-`));
  const dbPath = join(dir, "cli.db");
  return {
    dir,
    dbPath,
    file(name: string, content: string | Buffer): string {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    },
    /** Runs `node bin/assumeprobe.js ...args` on this sandbox's database. */
    run(args: string[], input?: string | Buffer): Promise<CliResult> {
      return runCli(args, { ASSUMEPROBE_DB: dbPath }, input);
    },
    /** Rows of a query on this sandbox's database, read-only. */
    query<T>(sql: string, ...args: unknown[]): T[] {
      const db = new Database(dbPath, { readonly: true });
      registerOriginalFunctions(db);
      try {
        return db.prepare(sql).all(...args) as T[];
      } finally {
        db.close();
      }
    },
    /** The traces stored from one source (its source name), in the order they were read. */
    traces(source: string): StoredRow[] {
      return this.query<StoredRow>(
        `SELECT t.ext_id, t.form, t.model, t.payload_model, t.response, ${originalOf("t.")} AS original, t.started_at,
           t.latency_ms, t.line, r.name AS run
         FROM traces t JOIN runs r ON r.id = t.run_id WHERE t.source = ? ORDER BY t.id`,
        source,
      );
    },
    /** The newest saved lexicon version (0: none). */
    lexiconVersion(): number {
      const db = new Database(dbPath, { readonly: true });
      try {
        return (db.prepare("SELECT max(version) FROM lexicon_versions").pluck().get() as number | null) ?? 0;
      } finally {
        db.close();
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function runCli(
  args: string[],
  env: Record<string, string>,
  input?: string | Buffer,
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, "bin", "assumeprobe.js"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", reject);
    child.on("close", (code) =>
      resolve({ code, stdout, stderr, lines: stdout.split("\n").filter((l) => l.trim() !== "") }),
    );
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

export const ARGS = { user_id: "u_9182", starts_at: "2026-09-08T09:00:00" };

/** The first article's four fixtures, in the seed's trace shape: ASK, OMIT, INJECT, INJECT. */
export const ARTICLE_FIXTURES = [
  { text: "Which timezone should I use?" },
  { tool_call: { arguments: { ...ARGS } } },
  { tool_call: { arguments: { ...ARGS, timezone: "UTC" } } },
  { tool_call: { arguments: { ...ARGS, timezone: "Asia/Tokyo" } } },
];

export const jsonl = (values: unknown[]) => `${values.map((v) => JSON.stringify(v)).join("\n")}\n`;
