import { z } from "zod";
import { type ProbeConfiguration, ProbeConfigurationSchema } from "../fixtures/configuration";
import {
  ASK_RULES,
  type LexiconEntry,
  LexiconError,
  MAX_FIELD_NAME_LENGTH,
  normalizeEntries,
} from "../lexicon/lexicon";
import { MAX_TERM_LENGTH } from "../lexicon/terms";
import { AskTermsSchema, ProbeIdSchema } from "../probe/schema";
import { ReviewerSchema } from "../review/contract";
import type { SourceSentence } from "./suggest";
import type { TermChange } from "./types";
import type { WhatIfReport } from "./whatIf";

/**
 * Tuning's contracts: what the lexicon page and a probe's tune page send to their server actions
 * (drafts, saves, re-scores, suggestion requests) and what `assumeprobe suggest --json` prints.
 * One definition, imported by the pages, the actions, the command line and the storage.
 */

/**
 * Where a tuning change goes: the shared lexicon, or one probe's own terms. The probe is named by
 * its id on the pages; the suggestion rules hold its definition instead (`TuningTarget<Probe>`).
 */
export type TuningTarget<P = string> = { kind: "lexicon" } | { kind: "probe"; probe: P };

/** A draft the what-if applies and a save stores: the whole lexicon's entries, or one probe's configuration. */
export type TuneDraft =
  | { kind: "lexicon"; entries: Readonly<Record<string, LexiconEntry>> }
  | { kind: "probe"; probe: string; configuration: ProbeConfiguration };

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
]) satisfies z.ZodType<TuneDraft>;

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
export type RescoreScope = z.infer<typeof RescoreScopeSchema>;

export const StartRescoreSchema = z.object({
  scope: RescoreScopeSchema,
  reviewer: ReviewerSchema.optional(),
});

export const RescoreIdsSchema = z.object({ ids: z.array(z.number().int().positive()).max(10_000) });

/** What the suggestions panel asks for: a target, the runs and sets to learn from (none: all), how many. */
export const SuggestRequestSchema = z
  .object({
    probe: z.string().min(1).max(500).nullable(),
    runs: z.array(z.string().min(1).max(500)).max(200),
    sets: z.array(z.string().min(1).max(200)).max(200),
    top: z.number().int().min(1).max(100),
  })
  .strict();
export type SuggestRequestInput = z.infer<typeof SuggestRequestSchema>;

/** One suggestion as `assumeprobe suggest --json` prints it. */
export interface SuggestionJson {
  rank: number;
  change: TermChange;
  fixes: number;
  breaks: number;
  net: number;
  in_question: boolean;
  /** Different traces its fixes come from. */
  traces: number;
  fixed: string[];
  broken: string[];
  /** Of `broken`, the fields a review labelled (in scope): moved away from what a person said. */
  reviewed: string[];
  sources: SourceSentence[];
  what_if: WhatIfReport | null;
}

/** The suggestions as `assumeprobe suggest --json` prints them. */
export interface SuggestionsJson {
  /** Where the changes go, and the version they were learned against. */
  target: TuningTarget & { version: number };
  scope: { runs: string[]; sets: string[]; probe: string | null };
  counted: { fields: number; missedAsks: number; wrongAsks: number; missing: number };
  /** What a suggestion needs to be listed: fixes, from different traces. */
  needs: { fixes: number; traces: number };
  suggestions: SuggestionJson[];
  ms: { read: number; rank: number; whatIf: number };
}
