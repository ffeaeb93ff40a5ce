import type { Command } from "commander";
import {
  compactDatabase,
  type FileSizes,
  inlineOriginals,
  NoRoomError,
  packStoredOriginals,
} from "../../../db/queries/packOriginals";
import { cliDb } from "../db";
import { positiveInt } from "../usage";

const n = (x: number) => x.toLocaleString("en-US");
const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
const sizes = (s: FileSizes) =>
  `${mb(s.db + s.wal + s.shm)} (database ${mb(s.db)}, write-ahead log ${mb(s.wal)}, shared memory ${mb(s.shm)})`;

export function registerDb(program: Command): void {
  const db = program.command("db").description("Storage upkeep: pack stored originals, compact the file.");
  db.command("pack")
    .description(
      "Packs the originals of traces stored before compressed blocks into blocks, a chunk at a time: safe to stop and run again, and the dashboard reads both kinds of row meanwhile. Then `assumeprobe db compact` gives the space back.",
    )
    .option("--chunk <n>", "traces per transaction", positiveInt("--chunk"), 2000)
    .option("--json", "one JSON object")
    .action((opts: { chunk: number; json?: boolean }) => {
      const chunk = opts.chunk;
      const d = cliDb();
      const todo = inlineOriginals(d);
      const say = (s: string) => {
        if (!opts.json) process.stderr.write(s);
      };
      say(`${n(todo)} traces hold their original inline\n`);
      const r = packStoredOriginals(d, {
        chunk,
        onChunk: process.stderr.isTTY ? (k) => say(`\rpacked ${n(k)} of ${n(todo)}`) : undefined,
      });
      if (r.packed > 0 && process.stderr.isTTY) say("\n");
      if (opts.json) {
        process.stdout.write(
          `${JSON.stringify({ traces_before: r.tracesBefore, traces_after: r.tracesAfter, packed: r.packed, inline: r.inline })}\n`,
        );
        return;
      }
      process.stdout.write(
        `traces before: ${n(r.tracesBefore)}, after: ${n(r.tracesAfter)}; packed ${n(r.packed)}, inline ${n(r.inline)}\n`,
      );
      if (r.packed > 0) process.stdout.write("run `assumeprobe db compact` to give the freed space back\n");
    });
  db.command("compact")
    .description(
      "Shrinks the database file with VACUUM (a full rewrite that frees and defragments; it needs free disk of about the database's size and holds the write lock while it runs), then truncates the write-ahead log. Prints the sizes before and after.",
    )
    .option("--json", "one JSON object")
    .action((opts: { json?: boolean }) => {
      const d = cliDb();
      try {
        const r = compactDatabase(d);
        if (opts.json) process.stdout.write(`${JSON.stringify(r)}\n`);
        else process.stdout.write(`before: ${sizes(r.before)}\nafter:  ${sizes(r.after)}\n`);
      } catch (e) {
        if (!(e instanceof NoRoomError)) throw e;
        process.stderr.write(`assumeprobe db compact: ${e.message}\n`);
        process.exitCode = 1;
      }
    });
}
