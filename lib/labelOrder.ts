import { bareLabelField } from "./probe/compile";
import type { Label } from "./probe/schema";

/** INJECT first: it is the number people act on. */
export const LABEL_ORDER: Label[] = ["INJECT", "ASK", "OMIT", "COPY", "DRIFT", "ERROR"];

/** The field a run is read by: timezone when probed (as DESIGN.md reads a bare label), else the most-sampled. */
export function primaryField(fields: { field: string; n: number }[]): string | null {
  return bareLabelField(fields.map((f) => f.field));
}
