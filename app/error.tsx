"use client";

/** Errors never show a stack trace: a short message and a way to try again. */
export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <div className="py-16 text-center" role="alert">
      <h1 className="text-2xl font-semibold">Something went wrong</h1>
      <p className="mt-2 text-slate-600">
        The page could not be loaded.{error.digest ? ` Reference: ${error.digest}.` : ""}
      </p>
      <button
        type="button"
        onClick={reset}
        className="mt-4 rounded bg-slate-900 px-3 py-1.5 text-sm text-white"
      >
        Try again
      </button>
    </div>
  );
}
