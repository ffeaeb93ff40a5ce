/** The trace's record and raw payload as downloads: the whole of what the page shows only part of. */
export function RecordDownloads({ id, bytes, raw }: { id: number; bytes: number; raw: boolean }) {
  const cls = "text-xs font-medium text-indigo-700 underline";
  return (
    <span className="flex flex-wrap gap-x-3 gap-y-1" data-testid="record-downloads">
      <a href={`/traces/${id}/record`} className={cls} download data-testid="download-original">
        <span aria-hidden="true">⤓ </span>record ({bytes.toLocaleString("en-US")} bytes)
      </a>
      {raw ? (
        <a href={`/traces/${id}/raw`} className={cls} download data-testid="download-raw">
          <span aria-hidden="true">⤓ </span>raw payload
        </a>
      ) : null}
    </span>
  );
}
