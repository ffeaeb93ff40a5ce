import type { ReactNode } from "react";

/**
 * The top of a tuning page (the lexicon's, a probe's tune page): what it tunes, the version a draft
 * starts from with a line about it, and the notice of a saved configuration past today's limits.
 */
export function TuningHeader({
  title,
  intro,
  version,
  versionTestId,
  about,
  overLimit,
}: {
  title: ReactNode;
  intro: ReactNode;
  version: number;
  versionTestId: string;
  /** A line under the version: who saved it, or what scores with it. */
  about: ReactNode;
  /** Why the saved terms are past the limits a save applies, if they are. */
  overLimit: string | null;
}) {
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold">{title}</h1>
          <p className="max-w-3xl text-sm text-slate-600">{intro}</p>
        </div>
        <p className="text-sm sm:text-right" data-testid={versionTestId}>
          <span className="rounded bg-slate-100 px-2 py-1 font-mono">version {version}</span>
          <span className="mt-1 block text-xs text-slate-500">{about}</span>
        </p>
      </div>
      {overLimit ? (
        <p role="status" className="rounded bg-amber-50 p-3 text-sm text-amber-900" data-testid="over-limit">
          {overLimit}
        </p>
      ) : null}
    </>
  );
}
