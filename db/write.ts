/**
 * The one write path: every write to the database (ingest batches, probes, ingest bookkeeping, run
 * deletes, reviews, fixture sets, sessions) goes through `writeSync` or `write`, in a transaction
 * that starts as BEGIN IMMEDIATE. A write that rolls back makes its connection forget the caches
 * of rows it may have created (`forgetOnRollback`: tag ids).
 *
 * Why: a deferred transaction that reads before it writes cannot wait for the lock. In WAL mode,
 * when another connection commits after such a transaction's first read, its first write fails at
 * once with SQLITE_BUSY ("database is locked"), whatever the busy timeout: waiting cannot make its
 * snapshot current. An IMMEDIATE transaction takes the write lock before it reads anything, so it
 * reads the latest data and a second writer simply waits.
 *
 * How writers queue: SQLite's own busy handler sleeps up to 100 ms between tries, so a writer that
 * commits batch after batch (an ingest) leaves the lock free for only a moment between two of them
 * and a waiting writer can starve past any timeout. Here a waiter polls every POLL_MS, and says it
 * is waiting by touching a small signal file beside the database; a writer that finds the file
 * touched while it held the lock pauses YIELD_MS before its next transaction, so the waiter gets in.
 * Uncontended writes pay one stat() per transaction.
 */
import { closeSync, openSync, statSync, utimesSync } from "node:fs";
import type Database from "better-sqlite3";
import type { Db } from "./client";

/** How often a waiting writer tries for the lock. */
const POLL_MS = 2;
/** How long a writer that kept another waiting stays out before its next transaction. */
const YIELD_MS = 25;
/** How long a writer waits for the lock before it gives up with WriteWaitError. */
export const DEFAULT_WRITE_WAIT_MS = 5 * 60_000;

/** The lock stayed with other writers for longer than a writer waits. */
export class WriteWaitError extends Error {}

interface WriterState {
  begin: Database.Statement;
  commit: Database.Statement;
  rollback: Database.Statement;
  /** The signal file waiting writers touch (null for an in-memory database). */
  signal: string | null;
  signalReady: boolean;
  /** When this connection last took the lock (ms since the epoch). */
  acquiredAt: number;
  /** Not before this time does this connection start its next transaction (it kept someone waiting). */
  yieldUntil: number;
  /** The connection's busy timeout, restored after each non-blocking try. */
  busyTimeout: number;
}

const states = new WeakMap<Database.Database, WriterState>();
/** Set by tests: how long every writer waits, whatever it asked for. */
let testWaitMs: number | undefined;

/** For tests: how long every writer waits for the lock (no value: each its own wait again). */
export function setWriteWaitMs(ms?: number): void {
  testWaitMs = ms;
}

export interface WriteOptions {
  /** How long to wait for the lock before giving up with WriteWaitError (default DEFAULT_WRITE_WAIT_MS). */
  waitMs?: number;
}

const waitOf = (o: WriteOptions) => testWaitMs ?? o.waitMs ?? DEFAULT_WRITE_WAIT_MS;

/**
 * What a rolled-back transaction must make its connection forget: caches of rows it may have
 * created (tag ids). Registered once by the module that keeps the cache.
 */
const forgetters: ((db: Db) => void)[] = [];

/** Registers a cache to forget after every rolled-back write (a nested one included). */
export function forgetOnRollback(forget: (db: Db) => void): void {
  if (!forgetters.includes(forget)) forgetters.push(forget);
}

function forget(db: Db): void {
  for (const f of forgetters) f(db);
}

function stateOf(db: Db): WriterState {
  let s = states.get(db.sqlite);
  if (!s) {
    s = {
      begin: db.sqlite.prepare("BEGIN IMMEDIATE"),
      commit: db.sqlite.prepare("COMMIT"),
      rollback: db.sqlite.prepare("ROLLBACK"),
      signal: db.path === ":memory:" ? null : `${db.path}-writers`,
      signalReady: false,
      acquiredAt: 0,
      yieldUntil: 0,
      busyTimeout: Number(db.sqlite.pragma("busy_timeout", { simple: true })),
    };
    states.set(db.sqlite, s);
  }
  return s;
}

const isBusy = (e: unknown) => {
  const code = (e as { code?: string })?.code;
  return code === "SQLITE_BUSY" || code === "SQLITE_BUSY_SNAPSHOT" || code === "SQLITE_LOCKED";
};

/** One non-blocking try for the write lock. */
function tryBegin(db: Db, s: WriterState): boolean {
  db.sqlite.pragma("busy_timeout = 0");
  try {
    s.begin.run();
    s.acquiredAt = Date.now();
    return true;
  } catch (e) {
    if (isBusy(e)) return false;
    throw e;
  } finally {
    db.sqlite.pragma(`busy_timeout = ${s.busyTimeout}`);
  }
}

/** Tells the writer holding the lock that someone waits. */
function signalWaiting(s: WriterState): void {
  if (!s.signal) return;
  const now = new Date();
  try {
    if (!s.signalReady) {
      closeSync(openSync(s.signal, "a"));
      s.signalReady = true;
    }
    utimesSync(s.signal, now, now);
  } catch {
    // No signal (a read-only folder): the waiter still polls; only fairness is lost.
  }
}

/** After a commit: when someone waited meanwhile, stay out a moment before the next transaction. */
function noteCommitted(s: WriterState): void {
  if (!s.signal) return;
  try {
    if (statSync(s.signal).mtimeMs > s.acquiredAt) s.yieldUntil = Date.now() + YIELD_MS;
  } catch {
    // No signal file: nobody has waited for this database yet.
  }
}

function waitError(ms: number): WriteWaitError {
  return new WriteWaitError(
    `the database stayed locked by other writers for ${Math.round(ms / 1000)} s; nothing of this write was stored`,
  );
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepSync = (ms: number) => {
  if (ms > 0) Atomics.wait(sleeper, 0, 0, ms);
};
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function run<T>(db: Db, s: WriterState, fn: () => T): T {
  let result: T;
  try {
    result = fn();
    s.commit.run();
  } catch (e) {
    if (db.sqlite.inTransaction) s.rollback.run();
    forget(db);
    throw e;
  }
  noteCommitted(s);
  return result;
}

/** A write inside another: a savepoint of the outer transaction. */
function nested<T>(db: Db, fn: () => T): T {
  try {
    return db.sqlite.transaction(fn)();
  } catch (e) {
    forget(db);
    throw e;
  }
}

/**
 * Runs `fn` (synchronous) in one IMMEDIATE transaction, waiting for the write lock by blocking this
 * thread: for the command line, worker threads and scripts. A request handler of the server uses
 * `write`, which waits without blocking other requests. Nested calls run inside the outer
 * transaction (a savepoint).
 */
export function writeSync<T>(db: Db, fn: () => T, options: WriteOptions = {}): T {
  if (db.sqlite.inTransaction) return nested(db, fn);
  const s = stateOf(db);
  sleepSync(s.yieldUntil - Date.now());
  const started = Date.now();
  const waitMs = waitOf(options);
  while (!tryBegin(db, s)) {
    if (Date.now() - started > waitMs) throw waitError(waitMs);
    signalWaiting(s);
    sleepSync(POLL_MS);
  }
  return run(db, s, fn);
}

/**
 * `writeSync` for the server's request thread: waits for the write lock asynchronously (other
 * requests go on meanwhile), then runs `fn` (synchronous, short) in one IMMEDIATE transaction.
 */
export async function write<T>(db: Db, fn: () => T, options: WriteOptions = {}): Promise<T> {
  if (db.sqlite.inTransaction) return nested(db, fn);
  const s = stateOf(db);
  const pause = s.yieldUntil - Date.now();
  if (pause > 0) await sleep(pause);
  const started = Date.now();
  const waitMs = waitOf(options);
  // No await between a successful try and `fn`: nothing else on this connection runs in between.
  while (!tryBegin(db, s)) {
    if (Date.now() - started > waitMs) throw waitError(waitMs);
    signalWaiting(s);
    await sleep(POLL_MS);
  }
  return run(db, s, fn);
}
