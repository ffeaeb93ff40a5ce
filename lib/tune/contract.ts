import { z } from "zod";
import { ProbeConfigurationSchema } from "../fixtures/configuration";
import { ASK_RULES, LexiconError, MAX_FIELD_NAME_LENGTH, normalizeEntries } from "../lexicon/lexicon";
import { MAX_TERM_LENGTH } from "../lexicon/terms";
import { AskTermsSchema, ProbeIdSchema } from "../probe/schema";
import { ReviewerSchema } from "../review/contract";

/**
 * The tuning pages' contracts (the lexicon page and a probe's tune page send drafts, saves and
 * re-scores to server actions): one definition, imported by both sides.
 */
const Term = z.string().max(MAX_TERM_LENGTH * 4);
const Field = z.string().min(1).max(MAX_FIELD_NAME_LENGTH);

/** A lexicon draft: refused, naming the field, term or limit, unless it could be saved as it is. */
export const LexiconEntriesSchema = z
  .record(Field, z.object({ terms: z.array(Term), rule: z.enum(ASK_RULES) }).strict())
  .superRefine((entries, ctx) => {
    try {
      normalizeEntries(entries);
    } catch (e) {
      if (!(e instanceof LexiconError)) throw e;
      ctx.addIssue({ code: "custom", message: e.message });
    }
  });

export const ProbeDraftSchema = z.object({
  probe: ProbeIdSchema,
  configuration: ProbeConfigurationSchema.extend({
    ask_terms: z.record(Field, z.array(Term.min(1))).pipe(AskTermsSchema),
    bait: z.array(z.string().max(500)).max(500),
  }),
});

export const TuneDraftSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("lexicon"), entries: LexiconEntriesSchema }),
  z.object({ kind: z.literal("probe"), ...ProbeDraftSchema.shape }),
]);
export type TuneDraftInput = z.infer<typeof TuneDraftSchema>;

export const SaveDraftSchema = z.object({
  draft: TuneDraftSchema,
  /** The version the draft was made from: another saved since refuses the save. */
  base: z.number().int().nonnegative(),
  /** The person confirmed saving a draft that breaks seed fixtures. */
  allowBreak: z.boolean().default(false),
  /** The name this browser remembers, used only when the server knows none. */
  reviewer: ReviewerSchema.optional(),
});

/**
 * What a re-score from a page covers: every run the current configuration would score otherwise
 * (of one probe, when given), or one run.
 */
export const RescoreScopeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("stale"), probe: ProbeIdSchema.optional() }),
  z.object({ kind: z.literal("run"), run: z.string().min(1).max(500) }),
]);

export const StartRescoreSchema = z.object({
  scope: RescoreScopeSchema,
  reviewer: ReviewerSchema.optional(),
});

export const RescoreIdsSchema = z.object({ ids: z.array(z.number().int().positive()).max(10_000) });
