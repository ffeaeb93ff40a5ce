/**
 * The one lease helper: a job row (a bulk relabel, a bulk add to a fixture set, a dashboard re-score) is held by one runner at a
 * time through its `lease_owner` and `lease_until` columns. A runner claims it, renews it after each
 * batch, and releases it when it stops; a job whose runner died is taken over once its lease runs
 * out, or at once when its owner was a process of this machine that no longer exists (a restart).
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "../client";

/** How long a lease lasts without a batch renewing it. */
export const LEASE_MS = 15_000;

/** A table of leased jobs, and the condition its unfinished rows meet. */
export interface LeasedTable {
  table: "bulk_reviews" | "bulk_fixture_adds" | "rescores";
  /** SQL over the table's columns: the rows a runner may still work on. */
  open: string;
}

/** A new lease owner's name: this machine, this process and a random part (one per runner). */
export function newLeaseOwner(): string {
  return `${hostname()}:${process.pid}:${randomBytes(6).toString("hex")}`;
}

/**
 * Whether a lease's owner may still be at work: false only for a process of this machine that no
 * longer exists. An owner named another way (another machine, an older version) is taken to be
 * alive until its lease runs out.
 */
export function ownerAlive(owner: string): boolean {
  const m = /^(.*):(\d+):[0-9a-f]+$/.exec(owner);
  if (!m || m[1] !== hostname()) return true;
  const pid = Number(m[2]);
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== "ESRCH";
  }
}

interface LeaseRow {
  owner: string | null;
  until: number | null;
}

function free(row: LeaseRow, owner: string, now: number): boolean {
  return (
    row.owner === null ||
    row.owner === owner ||
    row.until === null ||
    row.until < now ||
    !ownerAlive(row.owner)
  );
}

/**
 * Claims an unfinished job for `owner` when nobody else holds it. One IMMEDIATE transaction: it
 * reads the lease and then writes it, and a deferred one that reads first could not wait for the
 * write lock on the busy timeout (SQLite answers SQLITE_BUSY at once). Returns whether we hold it.
 */
export function claimLease(db: Db, t: LeasedTable, id: number, owner: string, now = Date.now()): boolean {
  return db.sqlite
    .transaction(() => {
      const row = db.sqlite
        .prepare(
          `SELECT lease_owner AS owner, lease_until AS until FROM ${t.table} WHERE id = ? AND (${t.open})`,
        )
        .get(id) as LeaseRow | undefined;
      if (!row || !free(row, owner, now)) return false;
      db.sqlite
        .prepare(`UPDATE ${t.table} SET lease_owner = ?, lease_until = ? WHERE id = ?`)
        .run(owner, now + LEASE_MS, id);
      return true;
    })
    .immediate();
}

/** Renews our lease (after a batch); false when another runner took the job over. */
export function renewLease(db: Db, t: LeasedTable, id: number, owner: string, now = Date.now()): boolean {
  return (
    db.sqlite
      .prepare(`UPDATE ${t.table} SET lease_until = ? WHERE id = ? AND lease_owner = ?`)
      .run(now + LEASE_MS, id, owner).changes > 0
  );
}

/** Whether `owner` holds the job's lease (a read: it never waits for a writer). */
export function holds(db: Db, t: LeasedTable, id: number, owner: string): boolean {
  return db.sqlite.prepare(`SELECT lease_owner FROM ${t.table} WHERE id = ?`).pluck().get(id) === owner;
}

/** Gives our lease up (the runner stopped): the job is free for the next runner at once. */
export function releaseLease(db: Db, t: LeasedTable, id: number, owner: string): void {
  db.sqlite
    .prepare(`UPDATE ${t.table} SET lease_owner = NULL, lease_until = NULL WHERE id = ? AND lease_owner = ?`)
    .run(id, owner);
}

/** Unfinished jobs nobody holds (no lease, an expired one, or a dead owner's): what a restart resumes. */
export function abandonedJobs(db: Db, t: LeasedTable, now = Date.now()): number[] {
  const rows = db.sqlite
    .prepare(
      `SELECT id, lease_owner AS owner, lease_until AS until FROM ${t.table} WHERE ${t.open} ORDER BY id`,
    )
    .all() as (LeaseRow & { id: number })[];
  return rows.filter((r) => free(r, "", now)).map((r) => r.id);
}

/** Thrown by a job's progress callback when its lease was taken over: the runner stops there. */
export class LeaseLost extends Error {}
