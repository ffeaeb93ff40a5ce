"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import type { ActionFail } from "@/app/_lib/validatedAction";
import { type RoundAddResult, writeRoundToSet } from "@/db/queries/fixturesRound";
import { createRound, writeAdjudication, writeBlindReview } from "@/db/queries/rounds";
import { write } from "@/db/write";
import { LabelSchema } from "@/lib/probe/schema";
import { MAX_NOTE_LENGTH } from "@/lib/review/contract";
import { MAX_REVIEWS_PER_FIELD, MIN_REVIEWS_PER_FIELD, ROUND_SCOPES } from "@/lib/review/rounds";
import { asReviewer } from "./asReviewer";

/** How long a write waits for another process's write lock before the reviewer is told to try again. */
const WAIT_MS = 10_000;

const CreateRoundSchema = z.object({
  name: z.string().trim().min(1, "a round needs a name").max(100),
  scopeKind: z.enum(ROUND_SCOPES),
  scopeValue: z.string().trim().min(1, "name the run, probe or model").max(200),
  reviewsPerField: z.coerce.number().int().min(MIN_REVIEWS_PER_FIELD).max(MAX_REVIEWS_PER_FIELD),
  participants: z.string().max(2000).default(""),
});

export type CreateRoundResult = { ok: true; id: number; fields: number } | ActionFail;

/** Makes a blind round (its fields are written in the round's random order at once). */
export async function createRoundAction(
  input: z.input<typeof CreateRoundSchema>,
): Promise<CreateRoundResult> {
  const labels = { name: "Name", scopeValue: "Scope", reviewsPerField: "Reviews per field" };
  const options = { what: "round not made", retry: "the round could not be made: try again", labels };
  return asReviewer(CreateRoundSchema, input, options, async (db, d, reviewer) => {
    const participants = d.participants
      .split(/[,\n]/)
      .map((s) => s.trim())
      .filter(Boolean);
    const r = await write(
      db,
      () =>
        createRound(db, {
          name: d.name,
          scopeKind: d.scopeKind,
          scopeValue: d.scopeValue,
          reviewsPerField: d.reviewsPerField,
          participants: participants.length ? participants : null,
          createdBy: reviewer,
        }),
      { waitMs: 60_000 },
    );
    return { ok: true, id: r.round.id, fields: r.fields } as const;
  });
}

const BlindSchema = z.object({
  roundId: z.number().int().positive(),
  traceId: z.number().int().positive(),
  field: z.string().min(1).max(500),
  label: LabelSchema,
  note: z.string().max(MAX_NOTE_LENGTH).default(""),
});

/**
 * Saves a blind review. Answers only whether it was saved: the scorer's label and the other
 * reviews are shown by the next page load (the reveal), never in this answer.
 */
export async function saveBlindAction(
  input: z.input<typeof BlindSchema>,
): Promise<{ ok: true } | ActionFail> {
  const options = { what: "blind review failed", retry: "the review could not be saved: try again" };
  return asReviewer(BlindSchema, input, options, async (db, d, reviewer) => {
    await write(db, () => writeBlindReview(db, { ...d, reviewer }), { waitMs: WAIT_MS });
    return { ok: true } as const;
  });
}

/** Writes the settled label of a disputed field. */
export async function adjudicateAction(
  input: z.input<typeof BlindSchema>,
): Promise<{ ok: true } | ActionFail> {
  const options = { what: "adjudication failed", retry: "the label could not be saved: try again" };
  return asReviewer(BlindSchema, input, options, async (db, d, reviewer) => {
    await write(db, () => writeAdjudication(db, { ...d, reviewer }), { waitMs: WAIT_MS });
    refresh();
    return { ok: true } as const;
  });
}

const RoundToSetSchema = z.object({
  roundId: z.number().int().positive(),
  set: z.string().trim().min(1, "name the fixture set").max(100),
  single: z.boolean().default(false),
});

export type RoundToSetResult = ({ ok: true } & RoundAddResult) | ActionFail;

/** Adds a round's settled fields (agreed, adjudicated; single ones when asked) to a fixture set. */
export async function addRoundToSetAction(
  input: z.input<typeof RoundToSetSchema>,
): Promise<RoundToSetResult> {
  const options = {
    what: "round not added",
    retry: "the fields could not be added: try again",
    labels: { set: "Fixture set" },
  };
  return asReviewer(RoundToSetSchema, input, options, async (db, d, reviewer) => {
    const r = await write(db, () => writeRoundToSet(db, d.roundId, d.set, reviewer, { single: d.single }), {
      waitMs: 60_000,
    });
    return { ok: true, ...r } as const;
  });
}
