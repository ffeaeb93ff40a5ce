/**
 * How a prepared trace crosses to the ingest writer thread: a flat tuple (a structured clone of
 * 2,000 objects with 25 keys each costs several times more than of tuples), with its byte arrays
 * copied into buffers of their own (a Buffer may view a shared pool or a whole read chunk, which
 * a clone would copy whole).
 */
import type { PreparedError, PreparedTrace } from "../../lib/ingest/prepare";

export type PackedTrace = [
  runName: string,
  defaultRun: string,
  model: string,
  runParams: Record<string, unknown> | null,
  probeId: string,
  probeVersion: number,
  extId: string | null,
  identity: Uint8Array,
  hash: Uint8Array,
  file: string,
  source: string,
  line: number,
  form: string,
  payloadModel: string | null,
  startedAt: string | null,
  latencyMs: number | null,
  gate: string,
  modelMismatch: boolean,
  labels: string,
  result: string,
  response: string,
  recorded: string | null,
  human: string | null,
  original: string | Uint8Array,
  tags: string[],
  sig: number,
  search: string,
];

/** Bytes in an ArrayBuffer of their own. */
function ownBytes(b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
}

/** A Buffer view of bytes that lost their Buffer prototype in a structured clone. */
function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

export function packTrace(t: PreparedTrace): PackedTrace {
  return [
    t.runName,
    t.defaultRun,
    t.model,
    t.runParams,
    t.probeId,
    t.probeVersion,
    t.extId,
    ownBytes(t.identity),
    ownBytes(t.hash),
    t.file,
    t.source,
    t.line,
    t.form,
    t.payloadModel,
    t.startedAt,
    t.latencyMs,
    t.gate,
    t.modelMismatch,
    t.labels,
    t.result,
    t.response,
    t.recorded,
    t.human,
    typeof t.original === "string" ? t.original : ownBytes(t.original),
    t.tags,
    t.sig,
    t.search,
  ];
}

export function unpackTrace(p: PackedTrace): PreparedTrace {
  const [runName, defaultRun, model, runParams, probeId, probeVersion, extId, identity, hash] = p;
  const [file, source, line, form, payloadModel, startedAt, latencyMs, gate, modelMismatch] = p.slice(9);
  const [labels, result, response, recorded, human, original, tags, sig, search] = p.slice(18);
  return {
    runName,
    defaultRun,
    model,
    runParams,
    probeId,
    probeVersion,
    extId,
    identity: asBuffer(identity),
    hash: asBuffer(hash),
    file: file as string,
    source: source as string,
    line: line as number,
    form: form as string,
    payloadModel: payloadModel as string | null,
    startedAt: startedAt as string | null,
    latencyMs: latencyMs as number | null,
    gate: gate as string,
    modelMismatch: modelMismatch as boolean,
    labels: labels as string,
    result: result as string,
    response: response as string,
    recorded: recorded as string | null,
    human: human as string | null,
    original: typeof original === "string" ? original : asBuffer(original as Uint8Array),
    tags: tags as string[],
    sig: sig as number,
    search: search as string,
  };
}

export function packError(e: PreparedError): PreparedError {
  return { ...e, hash: ownBytes(e.hash) as Buffer };
}

export function unpackError(e: PreparedError): PreparedError {
  return { ...e, hash: asBuffer(e.hash) };
}
