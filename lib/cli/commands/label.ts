import type { Command } from "commander";
import type { Db } from "../../../db/client";
import { syncSeedSet } from "../../../db/queries/fixtureSeed";
import { checkSetName, getSet } from "../../../db/queries/fixtureSets";
import { writeHumanFields } from "../../../db/queries/fixtures";
import { type ReviewItem, reviewJson, type SubmitResult, writeReviews } from "../../../db/queries/reviews";
import { getRound, getRoundByName, type Round, writeBlindReview } from "../../../db/queries/rounds";
import { writeSync } from "../../../db/write";
import { describeInvalid, isUserError } from "../../errors";
import { FixtureError } from "../../fixtures/errors";
import { LABELS } from "../../probe/schema";
import { NoteSchema, ReviewerSchema } from "../../review/contract";
import { parseReviewLabel } from "../../review/humanLabel";
import { cliDb } from "../db";
import { UsageError } from "../usage";

const collect = (value: string, previous: string[]) => [...previous, value];

/** `FIELD=VALUE` split at its last `=` (a field name may hold one; a label or review id never does). */
function splitAssignment(text: string, what: string): [string, string] {
  const eq = text.lastIndexOf("=");
  if (eq <= 0)
    throw new UsageError(
      `${what} must look like FIELD=${what === "--base" ? "REVIEW_ID" : "LABEL"}, got "${text}"`,
    );
  return [text.slice(0, eq), text.slice(eq + 1)];
}

/** The command's arguments as a submission's items, or a usage error that says what was wrong. */
export function labelItems(assignments: string[], bases: string[]): ReviewItem[] {
  const items = new Map<string, ReviewItem>();
  for (const a of assignments) {
    const [field, value] = splitAssignment(a, "a label");
    const label = value === "" ? undefined : parseReviewLabel(value);
    if (label === undefined)
      throw new UsageError(`"${a}": the label must be one of ${LABELS.join(", ")}, or - to clear`);
    if (items.has(field)) throw new UsageError(`field "${field}" is named twice`);
    items.set(field, { field, label, base: null });
  }
  for (const b of bases) {
    const [field, value] = splitAssignment(b, "--base");
    const item = items.get(field);
    if (!item) throw new UsageError(`--base ${b}: field "${field}" is not among the fields being labelled`);
    if (!/^[1-9][0-9]{0,15}$/.test(value))
      throw new UsageError(`--base ${b}: the review id must be a positive integer`);
    if (item.base !== null) throw new UsageError(`--base names field "${field}" twice`);
    item.base = Number(value);
  }
  return [...items.values()];
}

/** A round named by id or name, or a usage error. */
function roundOf(db: Db, text: string): Round {
  const r = /^[1-9][0-9]{0,15}$/.test(text) ? getRound(db, Number(text)) : getRoundByName(db, text);
  if (!r) throw new UsageError(`--round: there is no round "${text}"`);
  return r;
}

export function registerLabel(program: Command): void {
  program
    .command("label")
    .description(
      "Review fields of one trace through the same code as the dashboard: FIELD=LABEL, FIELD=- clears. A field without --base claims to have seen no review of it; on a conflict nothing is written.",
    )
    .argument("<trace_id>", "the trace's id (as on the dashboard and in export's trace_id)")
    .argument("<assignments...>", "FIELD=LABEL (ASK, OMIT, COPY, INJECT, DRIFT, ERROR) or FIELD=- to clear")
    .requiredOption("--reviewer <name>", "who is reviewing")
    .option("--note <text>", "a note kept with each review", "")
    .option("--base <field=review_id>", "the review of FIELD you saw as current (repeatable)", collect, [])
    .option(
      "--blind",
      "write blind reviews of a round (--round): each reviewer's first counts for agreement; no --base, no clears",
    )
    .option("--round <id>", "the blind round (its id or name) the reviews belong to")
    .option(
      "--set <name>",
      "also add each field to this fixture set (created when missing), its new human label as the expected one",
    )
    .action(
      (
        traceIdText: string,
        assignments: string[],
        opts: {
          reviewer: string;
          note: string;
          base: string[];
          set?: string;
          blind?: boolean;
          round?: string;
        },
      ) => {
        if (!/^[1-9][0-9]{0,15}$/.test(traceIdText))
          throw new UsageError(`the trace id must be a positive integer, got "${traceIdText}"`);
        const reviewer = ReviewerSchema.safeParse(opts.reviewer);
        if (!reviewer.success) throw new UsageError(`--reviewer: ${describeInvalid(reviewer.error)}`);
        const note = NoteSchema.safeParse(opts.note);
        if (!note.success) throw new UsageError(`--note: ${describeInvalid(note.error)}`);
        const items = labelItems(assignments, opts.base);
        const set = opts.set;
        if (opts.round !== undefined && !opts.blind) throw new UsageError("--round goes with --blind");
        if (opts.blind) {
          if (opts.round === undefined)
            throw new UsageError("--blind needs --round ID: the round the reviews belong to");
          if (opts.base.length > 0)
            throw new UsageError("--blind reviews name no --base: each is the reviewer's first");
          const cleared = items.find((it) => it.label === null);
          if (cleared)
            throw new UsageError(
              `--blind: field "${cleared.field}" needs a label (a blind review cannot clear)`,
            );
        }
        const db = cliDb();
        const round = opts.blind ? roundOf(db, opts.round as string) : undefined;
        if (set !== undefined) {
          syncSeedSet(db);
          try {
            checkSetName(set);
          } catch (e) {
            if (e instanceof FixtureError) throw new UsageError(`--set: ${e.message}`);
            throw e;
          }
          if (getSet(db, set)?.builtin)
            throw new UsageError(`--set: the ${set} set is read-only: choose another set`);
        }
        const traceId = Number(traceIdText);
        let result: SubmitResult;
        let made: ReturnType<typeof writeHumanFields> | null;
        try {
          // One IMMEDIATE transaction: the reviews and the fixtures they make land together or not at all.
          ({ result, made } = writeSync(db, () => {
            const r: SubmitResult = round
              ? {
                  ok: true,
                  reviews: items.map(
                    (it) =>
                      writeBlindReview(db, {
                        roundId: round.id,
                        traceId,
                        field: it.field,
                        reviewer: reviewer.data,
                        label: it.label as string,
                        note: note.data,
                      }).review,
                  ),
                }
              : writeReviews(db, { traceId, reviewer: reviewer.data, note: note.data, items });
            const fields = items.map((it) => it.field);
            return {
              result: r,
              made:
                r.ok && set !== undefined ? writeHumanFields(db, set, reviewer.data, traceId, fields) : null,
            };
          }));
        } catch (e) {
          // A blind review the round refuses (the field is full, or the reviewer reviewed it blind
          // before) is no usage error: nothing was written, exit 1 as a conflict does.
          if (isUserError(e, "full", "already_reviewed")) {
            process.stderr.write(`${e.message}\n`);
            process.exitCode = 1;
            return;
          }
          if (isUserError(e)) throw new UsageError(e.message);
          throw e;
        }
        if (!result.ok) {
          const conflicts = result.conflicts.map((c) => ({
            field: c.field,
            current: c.current && reviewJson(c.current),
          }));
          process.stdout.write(`${JSON.stringify({ conflicts })}\n`);
          process.exitCode = 1;
          return;
        }
        const fixtures = (made?.fixtures ?? []).map((f) => ({
          id: f.identity,
          set: made?.set,
          field: f.field,
          expected: f.expected,
          outcome: f.outcome,
        }));
        process.stdout.write(`${JSON.stringify({ reviews: result.reviews.map(reviewJson), fixtures })}\n`);
      },
    );
}
