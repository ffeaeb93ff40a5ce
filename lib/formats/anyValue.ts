import { isObject } from "../isObject";

/**
 * OTLP's `AnyValue` in its JSON form (opentelemetry-proto, common.proto): one of `stringValue`,
 * `boolValue`, `intValue` (a decimal string, since 64-bit integers do not fit a JSON number; a
 * number is accepted too), `doubleValue`, `arrayValue {values}`, `kvlistValue {values: [{key,
 * value}]}`, `bytesValue` (base64). Decoded to the plain value it stands for; `undefined` for an
 * empty or unknown value. An `intValue` past JavaScript's safe integers stays its decimal string.
 */
export function decodeAnyValue(v: unknown, depth = 0): unknown {
  if (!isObject(v) || depth > 32) return undefined;
  if ("stringValue" in v) return typeof v.stringValue === "string" ? v.stringValue : String(v.stringValue);
  if ("boolValue" in v) return v.boolValue === true || v.boolValue === "true";
  if ("intValue" in v) {
    const n = typeof v.intValue === "number" ? v.intValue : Number(v.intValue);
    return Number.isSafeInteger(n) ? n : String(v.intValue);
  }
  if ("doubleValue" in v) {
    const d = v.doubleValue;
    return typeof d === "number"
      ? d
      : typeof d === "string" && d.trim() !== "" && Number.isFinite(Number(d))
        ? Number(d)
        : d;
  }
  if ("arrayValue" in v) {
    const values = isObject(v.arrayValue) ? v.arrayValue.values : undefined;
    return Array.isArray(values) ? values.map((x) => decodeAnyValue(x, depth + 1)) : [];
  }
  if ("kvlistValue" in v) {
    const values = isObject(v.kvlistValue) ? v.kvlistValue.values : undefined;
    return decodeKeyValues(values, depth + 1);
  }
  if ("bytesValue" in v) return v.bytesValue;
  return undefined;
}

/** A list of OTLP `KeyValue`s (`[{key, value}]`) as an object; later keys win, as in the SDKs. */
export function decodeKeyValues(list: unknown, depth = 0): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== "string") continue;
    const value = decodeAnyValue(kv.value, depth);
    if (value !== undefined) out[kv.key] = value;
  }
  return out;
}
