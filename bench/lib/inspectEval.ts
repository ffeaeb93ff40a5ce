import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import yazl from "yazl";
import { Rng } from "../../lib/generate/rng";
import { evalHeader, inspectSample } from "../../lib/testing/inspectLogs";
import { vocabWord } from "./generate";

/**
 * A generated Inspect `.eval` log of about a given size (zip bytes) for `bench:ingest --eval`:
 * samples in Inspect's own shape (lib/testing/inspectLogs.ts), each an agent turn of three
 * model generations offering schedule_window (a call, a question or a call, an answer), with
 * wordy system and user messages that every model event repeats in its input, as real logs do.
 * Written with yazl one entry at a time, so generating never holds more than one sample.
 */

const SW = {
  name: "schedule_window",
  required: ["user_id", "starts_at"],
  optional: ["timezone", "severity"],
};

function words(rng: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(vocabWord(Math.floor(rng.next() ** 3 * 5000)));
  return out.join(" ");
}

function sample(i: number, rng: Rng): Record<string, unknown> {
  const args = { user_id: `u_${1000 + (i % 9000)}`, starts_at: "2026-09-08T09:00:00" };
  const tz = rng.pick(["UTC", "Asia/Tokyo", "Europe/Paris", null]);
  return inspectSample({
    id: i,
    epoch: 1 + (i % 2),
    system: `You schedule maintenance windows. ${words(rng, 300)}`,
    user: `Schedule a window for user ${args.user_id} at 2026-09-08T09:00:00. ${words(rng, 400)}`,
    tools: [SW],
    metadata: i % 3 === 0 ? { world_state: { timezone: { status: "unknown" } } } : {},
    generations: [
      { content: words(rng, 20), calls: [{ function: "schedule_window", arguments: args }] },
      rng.chance(0.5)
        ? { content: "Which time zone should the window use?" }
        : {
            content: "",
            calls: [{ function: "schedule_window", arguments: tz ? { ...args, timezone: tz } : args }],
          },
      { content: words(rng, 120) },
    ],
  });
}

/** Writes the log; returns its samples, generations and uncompressed sample bytes. */
export async function writeEvalLog(
  path: string,
  targetBytes: number,
): Promise<{ samples: number; generations: number; rawBytes: number }> {
  const zip = new yazl.ZipFile();
  const out = createWriteStream(path);
  const finished = new Promise<void>((resolve, reject) => {
    out.on("finish", resolve);
    out.on("error", reject);
  });
  zip.outputStream.pipe(out);
  const rng = new Rng("bench-inspect-eval");
  const mtime = new Date("2026-09-08T09:00:00Z");
  let n = 0;
  let rawBytes = 0;
  while (out.bytesWritten + out.writableLength < targetBytes) {
    const s = sample(n, rng);
    // yazl keeps each entry's stream function to the end: it must not keep the sample's bytes.
    const held: { bytes: Buffer | null } = { bytes: Buffer.from(JSON.stringify(s)) };
    rawBytes += held.bytes?.length ?? 0;
    // The next entry is added once this one has been read into the zip: one sample at a time.
    await new Promise<void>((resolve) => {
      zip.addReadStreamLazy(`samples/${s.id}_epoch_${s.epoch}.json`, { compress: true, mtime }, (cb) => {
        const r = Readable.from([held.bytes as Buffer]);
        held.bytes = null;
        r.on("end", () => setImmediate(resolve));
        cb(null, r);
      });
    });
    n++;
  }
  zip.addBuffer(Buffer.from(JSON.stringify(evalHeader("openai/gpt-4o-mini"))), "header.json", { mtime });
  zip.end();
  await finished;
  return { samples: n, generations: n * 3, rawBytes };
}
