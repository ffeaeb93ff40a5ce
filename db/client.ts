import { mkdirSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { z } from "zod";
import { projectRoot } from "../lib/root";
import { registerOriginalFunctions } from "./queries/originals";
import * as schema from "./schema";

export type Orm = BetterSQLite3Database<typeof schema>;
export interface Db {
  /** The raw connection, for hot paths (ingest, trace pages) and SQL drizzle cannot express. */
  sqlite: Database.Database;
  orm: Orm;
  path: string;
}

const EnvSchema = z.object({
  ASSUMEPROBE_DB: z.string().min(1, "ASSUMEPROBE_DB must not be empty").optional(),
});

/** ASSUMEPROBE_DB, else data/assumeprobe.db inside the project folder. */
export function databasePath(): string {
  const env = EnvSchema.parse({ ASSUMEPROBE_DB: process.env.ASSUMEPROBE_DB || undefined });
  const p = env.ASSUMEPROBE_DB ?? join(/*turbopackIgnore: true*/ projectRoot(), "data", "assumeprobe.db");
  return isAbsolute(p) || p === ":memory:" ? p : resolve(/*turbopackIgnore: true*/ p);
}

/** Opens a database file: WAL, busy timeout, foreign keys, then every migration. */
export function openDb(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  // 16 KiB pages for a new database (an existing one keeps its own): a trace row with its original
  // line is 1-2 KB, and bigger pages cut the per-page work of writing them by about a quarter.
  sqlite.pragma("page_size = 16384");
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 10000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("cache_size = -65536");
  sqlite.pragma("temp_store = MEMORY");
  registerOriginalFunctions(sqlite);
  const orm = drizzle(sqlite, { schema });
  migrate(orm, { migrationsFolder: join(/*turbopackIgnore: true*/ projectRoot(), "db", "migrations") });
  return { sqlite, orm, path };
}

const globalForDb = globalThis as unknown as { assumeprobeDb?: Db };

/** The process's one connection, cached on globalThis so dev reloads do not open another. */
export function getDb(): Db {
  const path = databasePath();
  const hit = globalForDb.assumeprobeDb;
  if (hit && hit.path === path && hit.sqlite.open) return hit;
  const db = openDb(path);
  globalForDb.assumeprobeDb = db;
  return db;
}

export function closeDb(): void {
  globalForDb.assumeprobeDb?.sqlite.close();
  globalForDb.assumeprobeDb = undefined;
}
