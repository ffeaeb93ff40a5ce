import type Database from "better-sqlite3";
import { and, desc, eq } from "drizzle-orm";
import type { JsonBudget } from "../../lib/budget/jsonBudget";
import { readJson } from "../../lib/budget/readJson";
import { builtinProbes } from "../../lib/probe/builtin";
import { probeDigest } from "../../lib/probe/digest";
import { type Probe, ProbeSchema } from "../../lib/probe/schema";
import type { Db } from "../client";
import { probes, probeVersions } from "../schema";
import { writeSync } from "../write";

export interface StoredProbe {
  probe: Probe;
  version: number;
  builtin: boolean;
}

export interface ProbeVersionRow {
  version: number;
  origin: string;
  createdAt: string;
  digest: string;
}

/**
 * Parsed probe definitions by their stored digest (SHA-256 of the canonical definition, which
 * names the probe's id): the same content parses once, whatever database or version holds it.
 */
const parsedCache = new Map<string, Probe>();

function parseDefinition(digest: string, definition: string): Probe {
  let p = parsedCache.get(digest);
  if (!p) {
    p = ProbeSchema.parse(JSON.parse(definition));
    parsedCache.set(digest, p);
  }
  return p;
}

/**
 * Stores a probe: a new id gets version 1; a definition that differs from the current one becomes
 * a new version; the same definition again changes nothing.
 */
export function saveProbe(
  db: Db,
  probe: Probe,
  origin: string,
  builtin = false,
): { version: number; created: boolean } {
  const digest = probeDigest(probe);
  return writeSync(db, () => {
    const current = db.orm.select().from(probes).where(eq(probes.id, probe.id)).get();
    if (current) {
      const cur = db.orm
        .select({ digest: probeVersions.digest })
        .from(probeVersions)
        .where(and(eq(probeVersions.probeId, probe.id), eq(probeVersions.version, current.currentVersion)))
        .get();
      if (cur?.digest === digest) return { version: current.currentVersion, created: false };
    }
    const version = (current?.currentVersion ?? 0) + 1;
    if (current) {
      db.orm
        .update(probes)
        .set({
          currentVersion: version,
          updatedAt: new Date().toISOString(),
          builtin: current.builtin || builtin,
        })
        .where(eq(probes.id, probe.id))
        .run();
    } else {
      db.orm.insert(probes).values({ id: probe.id, currentVersion: version, builtin }).run();
    }
    db.orm
      .insert(probeVersions)
      .values({ probeId: probe.id, version, definition: JSON.stringify(probe), digest, origin })
      .run();
    return { version, created: true };
  });
}

/**
 * Brings the built-in probes from fixtures/probes/ into the database (a changed file is a new
 * version). Compared with the last version that came from the file, not the current one: a user's
 * own later version of a built-in probe stays current until the shipped file itself changes.
 */
export function syncBuiltinProbes(db: Db): void {
  const lastBuiltin = db.sqlite
    .prepare(
      "SELECT digest FROM probe_versions WHERE probe_id = ? AND origin = 'builtin' ORDER BY version DESC LIMIT 1",
    )
    .pluck();
  for (const probe of builtinProbes().values()) {
    if (lastBuiltin.get(probe.id) === probeDigest(probe)) continue;
    saveProbe(db, probe, "builtin", true);
  }
}

export function getProbe(db: Db, id: string): StoredProbe | undefined {
  const row = db.sqlite
    .prepare(
      `SELECT p.current_version AS version, p.builtin AS builtin, v.definition AS definition, v.digest AS digest
       FROM probes p JOIN probe_versions v ON v.probe_id = p.id AND v.version = p.current_version
       WHERE p.id = ?`,
    )
    .get(id) as { version: number; builtin: number; definition: string; digest: string } | undefined;
  if (!row) return undefined;
  return {
    probe: parseDefinition(row.digest, row.definition),
    version: row.version,
    builtin: row.builtin === 1,
  };
}

const versionStatements = new WeakMap<Db["sqlite"], Database.Statement<[string, number]>>();

/**
 * One stored version of a probe. A prepared statement, not a query built per call: a bulk add to
 * a fixture set looks up a version per field, and building the query cost 40 times the read.
 */
export function getProbeVersion(db: Db, id: string, version: number): Probe | undefined {
  let stmt = versionStatements.get(db.sqlite);
  if (!stmt) {
    stmt = db.sqlite.prepare(
      "SELECT definition, digest FROM probe_versions WHERE probe_id = ? AND version = ?",
    );
    versionStatements.set(db.sqlite, stmt);
  }
  const row = stmt.get(id, version) as { definition: string; digest: string } | undefined;
  return row ? parseDefinition(row.digest, row.definition) : undefined;
}

/** Definitions longer than this are read in slices the first time (see `loadProbeVersion`). */
const BIG_DEFINITION = 256 * 1024;
const WHOLE: JsonBudget = {
  entries: Number.POSITIVE_INFINITY,
  nodes: Number.POSITIVE_INFINITY,
  depth: 1_000,
};

/**
 * `getProbeVersion` for a page: an inline probe can bring megabytes (a tool of 50,000
 * parameters), whose first parse would block the event loop for everyone; a big definition not
 * parsed yet is read in slices (readJson, whole) before it is validated and cached.
 */
export async function loadProbeVersion(db: Db, id: string, version: number): Promise<Probe | undefined> {
  const row = db.orm
    .select({ definition: probeVersions.definition, digest: probeVersions.digest })
    .from(probeVersions)
    .where(and(eq(probeVersions.probeId, id), eq(probeVersions.version, version)))
    .get();
  if (!row) return undefined;
  if (row.definition.length > BIG_DEFINITION && !parsedCache.has(row.digest)) {
    const value = (await readJson(row.definition, WHOLE)).value;
    await new Promise<void>((resolve) => setImmediate(resolve));
    parsedCache.set(row.digest, ProbeSchema.parse(value));
  }
  return parseDefinition(row.digest, row.definition);
}

export function listProbeVersions(db: Db, id: string): ProbeVersionRow[] {
  return db.orm
    .select({
      version: probeVersions.version,
      origin: probeVersions.origin,
      createdAt: probeVersions.createdAt,
      digest: probeVersions.digest,
    })
    .from(probeVersions)
    .where(eq(probeVersions.probeId, id))
    .orderBy(desc(probeVersions.version))
    .all();
}

export function listProbes(db: Db): StoredProbe[] {
  const rows = db.sqlite
    .prepare(
      `SELECT p.current_version AS version, p.builtin AS builtin, v.definition AS definition, v.digest AS digest
       FROM probes p JOIN probe_versions v ON v.probe_id = p.id AND v.version = p.current_version
       ORDER BY p.builtin DESC, p.id`,
    )
    .all() as { version: number; builtin: number; definition: string; digest: string }[];
  return rows.map((r) => ({
    probe: parseDefinition(r.digest, r.definition),
    version: r.version,
    builtin: r.builtin === 1,
  }));
}

export function countProbes(db: Db): number {
  return (db.sqlite.prepare("SELECT count(*) FROM probes").pluck().get() as number) ?? 0;
}
