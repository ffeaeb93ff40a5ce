import { LABELS } from "../probe/schema";

/**
 * The run page's (and `export`'s) human-label filter: a label (the current human label is L),
 * `reviewed` (the field has a current human label), `unreviewed` (it has none), `differs`
 * (a human label that is not ours) or `agree` (a human label equal to ours). Human labels are the
 * current ones: a review, else the imported label.
 */
export const HUMAN_FILTERS = [...LABELS, "reviewed", "unreviewed", "differs", "agree"] as const;
export type HumanFilter = (typeof HUMAN_FILTERS)[number];

/** Words the URL used to carry before reviews existed (`human=disagree`). */
export const HUMAN_FILTER_ALIASES: Readonly<Record<string, HumanFilter>> = { disagree: "differs" };

export interface FieldHumanState {
  /** Our label. */
  ours: string;
  /** The current human label, when there is one. */
  human: string | undefined;
  reviewed: boolean;
}

/** Whether one field passes the human filter. */
export function matchesHumanFilter(filter: HumanFilter, s: FieldHumanState): boolean {
  switch (filter) {
    case "reviewed":
      return s.human !== undefined;
    case "unreviewed":
      return s.human === undefined;
    case "differs":
      return s.human !== undefined && s.human !== s.ours;
    case "agree":
      return s.human !== undefined && s.human === s.ours;
    default:
      return s.human === filter;
  }
}

/** How the filter reads on a page. */
export function humanFilterText(filter: HumanFilter): string {
  switch (filter) {
    case "reviewed":
      return "any (reviewed or imported)";
    case "unreviewed":
      return "none (not reviewed)";
    case "differs":
      return "differs from ours";
    case "agree":
      return "agrees with ours";
    default:
      return `human = ${filter}`;
  }
}
