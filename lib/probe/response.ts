/**
 * A model response as the scorer reads it. `tool_calls` keeps calls exactly as they arrived
 * (a falsy entry is no call; `arguments` may still be a JSON string): scoring, not parsing,
 * decides what they mean.
 */
export interface ToolCall {
  name?: unknown;
  arguments?: unknown;
}

export interface NormalizedResponse {
  text: string | null;
  tool_calls: unknown[];
  /** The call was recovered from a fenced JSON block in the text. */
  fenced: boolean;
  /**
   * The provider payload is in no format the parser knows, so no call could be looked for in it.
   * Present only when true: responses stored before it existed read the same.
   */
  unrecognized?: true;
  /**
   * The seed's trace shape, scored as given: no fence recovery, and text in fenced code blocks
   * counts toward ask terms as any text (seed parity). Present only when true.
   */
  verbatim?: true;
}

export const EMPTY_RESPONSE: NormalizedResponse = Object.freeze({
  text: null,
  tool_calls: [],
  fenced: false,
}) as NormalizedResponse;
