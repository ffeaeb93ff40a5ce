/**
 * A reviewer working through a round as fast as it can, in its own process (db/queries/rounds.test.ts
 * races several): claims the next field, reviews it blind, until the round has nothing left for it.
 * Prints one JSON line: the fields it reviewed and how many writes were refused.
 * Usage: node --import tsx db/queries/roundsRaceChild.ts DB ROUND_ID REVIEWER
 */
import { isUserError } from "../../lib/errors";
import { openDb } from "../client";
import { writeSync } from "../write";
import { claimNext, writeBlindReview } from "./rounds";

const [dbPath, roundId, reviewer] = process.argv.slice(2);
const db = openDb(dbPath);
const reviewed: string[] = [];
let refused = 0;
for (;;) {
  const c = writeSync(db, () => claimNext(db, Number(roundId), reviewer));
  if (!c) break;
  try {
    writeSync(db, () =>
      writeBlindReview(db, {
        roundId: c.roundId,
        traceId: c.traceId,
        field: c.field,
        reviewer,
        label: "ASK",
      }),
    );
    reviewed.push(`${c.traceId}/${c.field}`);
  } catch (e) {
    // Another process of the same reviewer reviewed the lease first.
    if (!isUserError(e, "already_reviewed")) throw e;
    refused++;
  }
}
process.stdout.write(`${JSON.stringify({ reviewed, refused })}\n`);
db.sqlite.close();
