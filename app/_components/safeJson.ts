/** The display form of untrusted JSON lives with the other budgets, in lib/budget/jsonText.ts. */
export { inlineValue, type SafeJsonOptions, type SafeJsonResult, safeJson } from "@/lib/budget/jsonText";
