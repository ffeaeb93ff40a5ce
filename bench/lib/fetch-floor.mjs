// The HTTP floor under `assumeprobe run`: the same POST, N times with K in flight, through Node's own
// fetch and nothing else (no SDK, no record, no scoring). Prints {"requests", "seconds"}.
const [url, n, k, bodyJson] = process.argv.slice(2);
const total = Number(n);
const body = bodyJson;
let next = 0;
const t0 = performance.now();
async function worker() {
  while (next < total) {
    next++;
    const r = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    await r.json();
  }
}
await Promise.all(Array.from({ length: Number(k) }, worker));
process.stdout.write(`${JSON.stringify({ requests: total, seconds: (performance.now() - t0) / 1000 })}\n`);
