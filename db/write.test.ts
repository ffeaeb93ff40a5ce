import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, openDb } from "./client";
import { setWriteWaitMs, WriteWaitError, write, writeSync } from "./write";

const dir = mkdtempSync(join(tmpdir(), "assumeprobe-write-"));
const path = join(dir, "w.db");
const a: Db = openDb(path);
const b: Db = openDb(path);
afterAll(() => {
  a.sqlite.close();
  b.sqlite.close();
  rmSync(dir, { recursive: true, force: true });
});
a.sqlite.exec("CREATE TABLE IF NOT EXISTS counter(n INTEGER NOT NULL)");
a.sqlite.exec("DELETE FROM counter; INSERT INTO counter VALUES (0)");
const read = (db: Db) => db.sqlite.prepare("SELECT n FROM counter").pluck().get() as number;
const bump = (db: Db) => db.sqlite.prepare("UPDATE counter SET n = ? ").run(read(db) + 1);

describe("the write path", () => {
  it("the cause: a deferred transaction that read first cannot wait for a write committed meanwhile", () => {
    b.sqlite.exec("BEGIN");
    read(b);
    a.sqlite.exec("UPDATE counter SET n = n + 1");
    expect(() => bump(b)).toThrow(expect.objectContaining({ code: expect.stringMatching(/^SQLITE_BUSY/) }));
    b.sqlite.exec("ROLLBACK");
  });

  it("waits for the writer that holds the lock, then reads what it committed", async () => {
    const before = read(a);
    a.sqlite.exec("BEGIN IMMEDIATE");
    bump(a);
    const waiting = write(b, () => {
      bump(b);
      return read(b);
    });
    // The other writer commits while this one waits (asynchronously: this test goes on meanwhile).
    await new Promise((r) => setTimeout(r, 50));
    a.sqlite.exec("COMMIT");
    expect(await waiting).toBe(before + 2);
    expect(read(a)).toBe(before + 2);
  });

  it("rolls back everything when the function throws, and the next write goes through", () => {
    const before = read(a);
    expect(() =>
      writeSync(a, () => {
        bump(a);
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(read(a)).toBe(before);
    expect(a.sqlite.inTransaction).toBe(false);
    writeSync(a, () => bump(a));
    expect(read(b)).toBe(before + 1);
  });

  it("runs a nested write inside the outer transaction", () => {
    const before = read(a);
    writeSync(a, () => {
      bump(a);
      writeSync(a, () => bump(a));
    });
    expect(read(b)).toBe(before + 2);
  });

  it("gives up with a clear error when the lock stays taken past the wait", async () => {
    setWriteWaitMs(200);
    try {
      a.sqlite.exec("BEGIN IMMEDIATE");
      await expect(write(b, () => bump(b))).rejects.toThrow(WriteWaitError);
      expect(() => writeSync(b, () => bump(b))).toThrow(/stayed locked by other writers/);
    } finally {
      a.sqlite.exec("ROLLBACK");
      setWriteWaitMs();
    }
  });
});
