import { z } from "zod";
import type { SourceSentence } from "./suggest";
import type { TermChange } from "./types";
import type { WhatIfReport } from "./whatIf";

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
  fixed: string[];
  broken: string[];
  sources: SourceSentence[];
  what_if: WhatIfReport | null;
}

/** The suggestions as `assumeprobe suggest --json` prints them. */
export interface SuggestionsJson {
  target: { kind: "lexicon"; version: number } | { kind: "probe"; probe: string; version: number };
  scope: { runs: string[]; sets: string[]; probe: string | null };
  counted: { fields: number; missedAsks: number; wrongAsks: number; missing: number };
  suggestions: SuggestionJson[];
  ms: { read: number; rank: number; whatIf: number };
}
