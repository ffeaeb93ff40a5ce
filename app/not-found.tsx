import Link from "next/link";

export default function NotFound() {
  return (
    <div className="py-16 text-center" data-testid="not-found">
      <h1 className="text-2xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">There is no run, trace or probe by that name.</p>
      <Link href="/" className="mt-4 inline-block text-indigo-700 underline">
        Back to the runs
      </Link>
    </div>
  );
}
