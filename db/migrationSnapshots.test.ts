import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { projectRoot } from "../lib/root";

// drizzle-kit diffs db/schema.ts against the newest snapshot in db/migrations/meta. A missing or
// stale snapshot makes `npm run db:generate` ask about renames at a prompt (with no terminal it
// prints an error and still exits 0), so these tests read its output, not its exit code.

const root = projectRoot();
const migrations = join(root, "db", "migrations");
const scratch = mkdtempSync(join(tmpdir(), "assumeprobe-generate-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Journal {
  entries: { idx: number; tag: string }[];
}
interface Snapshot {
  id: string;
  prevId: string;
  tables: Record<
    string,
    {
      columns: Record<string, { name: string; notNull: boolean; primaryKey: boolean }>;
      indexes: Record<string, unknown>;
    }
  >;
}

const journal = JSON.parse(readFileSync(join(migrations, "meta", "_journal.json"), "utf8")) as Journal;
const snapshot = (idx: number): Snapshot =>
  JSON.parse(
    readFileSync(join(migrations, "meta", `${String(idx).padStart(4, "0")}_snapshot.json`), "utf8"),
  ) as Snapshot;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).sort();
}

describe("migration snapshots", () => {
  it("has one snapshot per migration, chained by prevId", () => {
    const sqlFiles = readdirSync(migrations).filter((f) => f.endsWith(".sql"));
    expect(journal.entries.map((e) => `${e.tag}.sql`)).toEqual(sqlFiles.sort());
    let prev = "00000000-0000-0000-0000-000000000000";
    for (const entry of journal.entries) {
      const snap = snapshot(entry.idx);
      expect(snap.prevId, `snapshot ${entry.idx}`).toBe(prev);
      prev = snap.id;
    }
  });

  it("drizzle-kit generate on a clean copy writes nothing and prints no error", () => {
    const copy = join(scratch, "project");
    cpSync(join(root, "db", "schema.ts"), join(copy, "db", "schema.ts"));
    cpSync(migrations, join(copy, "db", "migrations"), { recursive: true });
    cpSync(join(root, "drizzle.config.ts"), join(copy, "drizzle.config.ts"));
    cpSync(join(root, "package.json"), join(copy, "package.json"));
    symlinkSync(join(root, "node_modules"), join(copy, "node_modules"), "dir");
    const before = listFiles(join(copy, "db"));
    const run = spawnSync(
      process.execPath,
      [join(root, "node_modules", "drizzle-kit", "bin.cjs"), "generate"],
      {
        cwd: copy,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
        timeout: 60_000,
      },
    );
    const printed = `${run.stdout}\n${run.stderr}`;
    expect(run.status, printed).toBe(0);
    expect(printed).toContain("No schema changes");
    // drizzle-kit prints its failures (a prompt it cannot show, a bad snapshot) and still exits 0.
    expect(run.stderr.trim(), printed).toBe("");
    expect(printed).not.toMatch(/\berror\b|prompt|TTY/i);
    expect(listFiles(join(copy, "db"))).toEqual(before);
  });

  it("the newest snapshot holds the tables, columns and indexes the migrations make", () => {
    const db = new Database(":memory:");
    for (const entry of journal.entries) {
      const sql = readFileSync(join(migrations, `${entry.tag}.sql`), "utf8");
      for (const statement of sql.split("--> statement-breakpoint")) {
        if (statement.trim()) db.exec(statement);
      }
    }
    const snap = snapshot(journal.entries[journal.entries.length - 1].idx);
    for (const [table, def] of Object.entries(snap.tables)) {
      const columns = db.prepare(`PRAGMA table_info(\`${table}\`)`).all() as {
        name: string;
        notnull: number;
      }[];
      expect(columns.map((c) => c.name).sort(), `columns of ${table}`).toEqual(
        Object.values(def.columns)
          .map((c) => c.name)
          .sort(),
      );
      for (const c of columns) {
        const declared = Object.values(def.columns).find((d) => d.name === c.name);
        expect(Boolean(c.notnull) || declared?.primaryKey === true, `${table}.${c.name} NOT NULL`).toBe(
          declared?.notNull === true || declared?.primaryKey === true,
        );
      }
      const indexes = (
        db.prepare(`PRAGMA index_list(\`${table}\`)`).all() as { name: string; origin: string }[]
      )
        .filter((i) => i.origin === "c")
        .map((i) => i.name);
      for (const name of Object.keys(def.indexes))
        expect(indexes, `index ${name} on ${table}`).toContain(name);
    }
    db.close();
  });
});
