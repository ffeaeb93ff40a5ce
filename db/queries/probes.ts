import type Database from "better-sqlite3";
import { and, desc, eq } from "drizzle-orm";
import type { JsonBudget } from "../../lib/budget/jsonBudget";
import { readJson } from "../../lib/budget/readJson";
import { UserError } from "../../lib/errors";
import {
  applyConfiguration,
  configurationOf,
  normalizeConfiguration,
  type ProbeConfiguration,
} from "../../lib/fixtures/configuration";
import { builtinProbes } from "../../lib/probe/builtin";
import { probeDigest } from "../../lib/probe/digest";
import { describeIssues, type Probe, ProbeSchema, StoredProbeSchema } from "../../lib/probe/schema";
import type { Db } from "../client";
import { probes, probeVersions } from "../schema";
import { writeSync } from "../write";

export interface StoredProbe {
  probe: Probe;
  version: number;
  builtin: boolean;
  /** Its scoring configuration was edited in the product: later records keep it (see saveProbe). */
  configurationEdited: boolean;
}

export interface ProbeVersionRow {
  version: number;
  origin: string;
  /** Who saved a version edited in the product; null for the others. */
  savedBy: string | null;
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
    p = StoredProbeSchema.parse(JSON.parse(definition));
    parsedCache.set(digest, p);
  }
  return p;
}

/** Origins of versions that records bring (an inline probe, a When2Call line). */
const isRecordOrigin = (origin: string) => origin.startsWith("inline:") || origin === "when2call";

export interface SavedProbe {
  version: number;
  /** False when an existing version was reused. */
  created: boolean;
  /** The definition stored as that version: what traces of it are scored with. */
  probe: Probe;
  /**
   * True when the probe's configuration had been edited in the product, so the version keeps that
   * configuration rather than the one the definition brought.
   */
  keptEditedConfiguration: boolean;
}

export interface SaveProbeOptions {
  builtin?: boolean;
  /**
   * The definition's configuration is an edit made in the product (the tune page, `probes edit`,
   * a fixture import): it is saved as given, by this person, and stays current whatever later
   * records bring.
   */
  editedBy?: string;
}

interface CurrentRow {
  version: number;
  builtin: number;
  edited: number;
  digest: string;
  definition: string;
}

/**
 * Stores a probe (DESIGN.md, "Vocabulary"): a new id gets version 1; a definition equal to the
 * current one changes nothing. A definition a record brings (inline, When2Call) that equals a
 * stored version reuses that version without making it current. Once the probe's scoring
 * configuration was edited in the product, every later definition (records, files, built-in
 * updates) keeps that configuration: one whose world differs makes a new version with the
 * edited configuration, and none makes another configuration current. Otherwise a changed
 * definition becomes a new, current version.
 */
export function saveProbe(
  db: Db,
  probe: Probe,
  origin: string,
  o: SaveProbeOptions | boolean = {},
): SavedProbe {
  const opts: SaveProbeOptions = typeof o === "boolean" ? { builtin: o } : o;
  const builtin = opts.builtin ?? false;
  return writeSync(db, () => {
    const cur = db.sqlite
      .prepare(
        `SELECT p.current_version AS version, p.builtin, p.configuration_edited AS edited, v.digest, v.definition
         FROM probes p JOIN probe_versions v ON v.probe_id = p.id AND v.version = p.current_version WHERE p.id = ?`,
      )
      .get(probe.id) as CurrentRow | undefined;
    const given = probeDigest(probe);
    const reuse = (version: number, digest: string, definition: string, kept: boolean): SavedProbe => ({
      version,
      created: false,
      probe: parseDefinition(digest, definition),
      keptEditedConfiguration: kept,
    });
    let stored = probe;
    let digest = given;
    const keep = cur !== undefined && cur.edited === 1 && opts.editedBy === undefined;
    if (cur) {
      if (given === cur.digest) return reuse(cur.version, cur.digest, cur.definition, false);
      if (keep) {
        stored = applyConfiguration(probe, configurationOf(parseDefinition(cur.digest, cur.definition)));
        digest = probeDigest(stored);
        if (digest === cur.digest) return reuse(cur.version, cur.digest, cur.definition, true);
      }
      if (isRecordOrigin(origin)) {
        const find = db.sqlite.prepare(
          "SELECT version, definition FROM probe_versions WHERE probe_id = ? AND digest = ? ORDER BY version DESC LIMIT 1",
        );
        for (const d of digest === given ? [given] : [given, digest]) {
          const hit = find.get(probe.id, d) as { version: number; definition: string } | undefined;
          if (hit) return reuse(hit.version, d, hit.definition, d !== given);
        }
      }
    }
    // The newest version, not the current one, comes before it: a re-score may have stored a
    // version that is not current (an older world with the current configuration).
    const newest = db.sqlite.prepare("SELECT max(version) FROM probe_versions WHERE probe_id = ?").pluck();
    const version = ((newest.get(probe.id) as number | null) ?? 0) + 1;
    const edited = (cur?.edited ?? 0) === 1 || opts.editedBy !== undefined;
    if (cur) {
      db.sqlite
        .prepare(
          `UPDATE probes SET current_version = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now'),
             builtin = ?, configuration_edited = ? WHERE id = ?`,
        )
        .run(version, cur.builtin === 1 || builtin ? 1 : 0, edited ? 1 : 0, probe.id);
    } else {
      db.orm
        .insert(probes)
        .values({ id: probe.id, currentVersion: version, builtin, configurationEdited: edited })
        .run();
    }
    const definition = JSON.stringify(stored);
    db.orm
      .insert(probeVersions)
      .values({ probeId: probe.id, version, definition, digest, origin, savedBy: opts.editedBy ?? null })
      .run();
    return {
      version,
      created: true,
      probe: parseDefinition(digest, definition),
      keptEditedConfiguration: keep,
    };
  });
}

/**
 * Saves a probe's scoring configuration edited in the product (the tune page, `probes edit`) as a
 * new current version of its current definition, which later records keep (see saveProbe).
 * The configuration is normalized first; the same configuration as the current one writes nothing.
 * Throws ProbeEditError for an unknown probe or a configuration the probe schema refuses.
 */
export function saveProbeConfiguration(
  db: Db,
  id: string,
  config: ProbeConfiguration,
  by: string,
): SavedProbe {
  const who = by.trim();
  if (who === "") throw new ProbeEditError("say who saves the configuration (a name)");
  return writeSync(db, () => {
    const current = getProbe(db, id);
    if (!current) throw new ProbeEditError(`unknown probe "${id}"`);
    const next = ProbeSchema.safeParse(applyConfiguration(current.probe, normalizeConfiguration(config)));
    if (!next.success) throw new ProbeEditError(`probe ${id}: ${describeIssues(next.error)}`);
    if (probeDigest(next.data) === probeDigest(current.probe))
      return {
        version: current.version,
        created: false,
        probe: current.probe,
        keptEditedConfiguration: false,
      };
    return saveProbe(db, next.data, "edit", { editedBy: who });
  });
}

export class ProbeEditError extends UserError<"probe_edit"> {
  constructor(message: string) {
    super("probe_edit", message);
  }
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
    saveProbe(db, probe, "builtin", { builtin: true });
  }
}

interface StoredRow {
  version: number;
  builtin: number;
  edited: number;
  definition: string;
  digest: string;
}

const storedProbe = (r: StoredRow): StoredProbe => ({
  probe: parseDefinition(r.digest, r.definition),
  version: r.version,
  builtin: r.builtin === 1,
  configurationEdited: r.edited === 1,
});

export function getProbe(db: Db, id: string): StoredProbe | undefined {
  const row = db.sqlite
    .prepare(
      `SELECT p.current_version AS version, p.builtin AS builtin, p.configuration_edited AS edited,
         v.definition AS definition, v.digest AS digest
       FROM probes p JOIN probe_versions v ON v.probe_id = p.id AND v.version = p.current_version
       WHERE p.id = ?`,
    )
    .get(id) as StoredRow | undefined;
  return row ? storedProbe(row) : undefined;
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
    parsedCache.set(row.digest, StoredProbeSchema.parse(value));
  }
  return parseDefinition(row.digest, row.definition);
}

export function listProbeVersions(db: Db, id: string): ProbeVersionRow[] {
  return db.orm
    .select({
      version: probeVersions.version,
      origin: probeVersions.origin,
      savedBy: probeVersions.savedBy,
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
      `SELECT p.current_version AS version, p.builtin AS builtin, p.configuration_edited AS edited,
         v.definition AS definition, v.digest AS digest
       FROM probes p JOIN probe_versions v ON v.probe_id = p.id AND v.version = p.current_version
       ORDER BY p.builtin DESC, p.id`,
    )
    .all() as StoredRow[];
  return rows.map(storedProbe);
}

export function countProbes(db: Db): number {
  return (db.sqlite.prepare("SELECT count(*) FROM probes").pluck().get() as number) ?? 0;
}
