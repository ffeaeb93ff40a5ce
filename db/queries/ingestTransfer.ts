/**
 * How a prepared trace crosses to the ingest writer thread: a flat tuple (a structured clone of
 * 2,000 objects with 25 keys each costs several times more than of tuples), with its byte arrays
 * copied into buffers of their own (a Buffer may view a shared pool or a whole read chunk, which
 * a clone would copy whole).
 */
import type { PreparedError, PreparedTrace } from "../../lib/ingest/prepare";
import type { PackedOriginals } from "../../lib/storage/originalBlocks";

export type PackedTrace = [
  runName: string,
  defaultRun: string,
  model: string,
  runParams: string | null,
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
  lexiconVersion: number,
  warnings: string[] | null,
];

/** Bytes in an ArrayBuffer of their own. */
function ownBytes(b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b);
}

/** A Buffer view of bytes that lost their Buffer prototype in a structured clone. */
function asBuffer(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

/**
 * `withoutOriginal`: the original travels packed beside the batch (packedOriginals), so the tuple
 * carries "" in its place (an original is never empty).
 */
export function packTrace(t: PreparedTrace, withoutOriginal = false): PackedTrace {
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
    withoutOriginal ? "" : typeof t.original === "string" ? t.original : ownBytes(t.original),
    t.tags,
    t.sig,
    t.search,
    t.lexiconVersion,
    t.warnings,
  ];
}

export function unpackTrace(p: PackedTrace): PreparedTrace {
  // Read by index: destructuring slices of the tuple would allocate two arrays per record.
  return {
    runName: p[0],
    defaultRun: p[1],
    model: p[2],
    runParams: p[3],
    probeId: p[4],
    probeVersion: p[5],
    extId: p[6],
    identity: asBuffer(p[7]),
    hash: asBuffer(p[8]),
    file: p[9],
    source: p[10],
    line: p[11],
    form: p[12],
    payloadModel: p[13],
    startedAt: p[14],
    latencyMs: p[15],
    gate: p[16],
    modelMismatch: p[17],
    labels: p[18],
    result: p[19],
    response: p[20],
    recorded: p[21],
    human: p[22],
    original: typeof p[23] === "string" ? p[23] : asBuffer(p[23]),
    tags: p[24],
    sig: p[25],
    search: p[26],
    lexiconVersion: p[27],
    warnings: p[28],
  };
}

export function packError(e: PreparedError): PreparedError {
  return { ...e, hash: ownBytes(e.hash) as Buffer };
}

export function unpackError(e: PreparedError): PreparedError {
  return { ...e, hash: asBuffer(e.hash) };
}

/** A batch's packed originals as they cross: the blocks, and (block, offset, length) per trace. */
export interface PackedOriginalsTransfer {
  blocks: Uint8Array[];
  refs: Int32Array;
}

export function packOriginalsTransfer(p: PackedOriginals): PackedOriginalsTransfer {
  const refs = new Int32Array(p.refs.length * 3);
  p.refs.forEach((r, i) => {
    refs[i * 3] = r.block;
    refs[i * 3 + 1] = r.at;
    refs[i * 3 + 2] = r.len;
  });
  return { blocks: p.blocks.map(ownBytes), refs };
}

export function unpackOriginalsTransfer(p: PackedOriginalsTransfer): PackedOriginals {
  const refs = [];
  for (let i = 0; i < p.refs.length; i += 3)
    refs.push({ block: p.refs[i], at: p.refs[i + 1], len: p.refs[i + 2] });
  return { blocks: p.blocks.map(asBuffer), refs };
}
