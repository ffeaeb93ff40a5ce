import type { Label } from "./probe/schema";

/** INJECT first: it is the number people act on. */
export const LABEL_ORDER: Label[] = ["INJECT", "ASK", "OMIT", "COPY", "DRIFT", "ERROR"];
