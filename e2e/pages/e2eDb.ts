import { execFileSync, spawn } from "node:child_process";
import { resolve } from "node:path";
import Database from "better-sqlite3";
import { registerOriginalFunctions } from "../../db/queries/originals";

/** The database the e2e server reads (e2e/serve.js creates it fresh for every run). */
export const E2E_DB = resolve(process.cwd(), process.env.E2E_TMP ?? "e2e/.tmp", "e2e.db");

/**
 * Runs the CLI against the e2e database (or `db`); the server sees the new rows on its next
 * request. Throws when it exits non-zero.
 */
export function cli(args: string[], db = E2E_DB): string {
  return execFileSync(process.execPath, [resolve(process.cwd(), "bin", "assumeprobe.js"), ...args], {
    env: { ...process.env, ASSUMEPROBE_DB: db },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The CLI's exit status and output, whatever the status (a tripwire's exit 1 is an answer). */
export function cliStatus(args: string[], db = E2E_DB): { status: number; stdout: string; stderr: string } {
  try {
    return { status: 0, stdout: cli(args, db), stderr: "" };
  } catch (e) {
    const err = e as { status: number | null; stdout: string; stderr: string };
    return { status: err.status ?? -1, stdout: err.stdout, stderr: err.stderr };
  }
}

/**
 * The CLI as a child process of its own against the e2e database, for what runs beside this
 * process (a chat server here answering it, two ingests at once): its exit code and output,
 * whatever the code. `env` adds to its environment.
 */
export function cliProcess(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [resolve(process.cwd(), "bin", "assumeprobe.js"), ...args], {
      env: { ...process.env, ASSUMEPROBE_DB: E2E_DB, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

export interface IngestSummary {
  records: number;
  ingested: number;
  duplicates: number;
  rejected: number;
  errors: { line: number; reason: string }[];
}

/** `assumeprobe ingest FILE --run RUN --json`; the last stdout line is the summary. */
export function ingest(file: string, run: string): IngestSummary {
  const out = cli(["ingest", file, "--run", run, "--json", "--no-progress"]).trim().split("\n");
  return JSON.parse(out[out.length - 1]) as IngestSummary;
}

/** A read-only connection for finding trace ids; close it when done. */
export function openReadOnly(): Database.Database {
  const db = new Database(E2E_DB, { readonly: true, fileMustExist: true });
  registerOriginalFunctions(db);
  return db;
}

/** Trace ids by record id within one run. */
export function traceIdsByExtId(run: string): Map<string, number> {
  const db = openReadOnly();
  try {
    const rows = db
      .prepare(
        "SELECT t.ext_id AS ext, t.id AS id FROM traces t JOIN runs r ON r.id = t.run_id WHERE r.name = ?",
      )
      .all(run) as { ext: string; id: number }[];
    return new Map(rows.map((r) => [r.ext, r.id]));
  } finally {
    db.close();
  }
}

/** The first row of a read-only query, or undefined. */
export function queryOne<T>(sql: string, ...args: unknown[]): T | undefined {
  const db = openReadOnly();
  try {
    return db.prepare(sql).get(...args) as T | undefined;
  } finally {
    db.close();
  }
}

/** Every row of a read-only query. */
export function queryAll<T>(sql: string, ...args: unknown[]): T[] {
  const db = openReadOnly();
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}
