import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { type Db, getDb } from "@/db/client";
import { getProbe, type StoredProbe } from "@/db/queries/probes";
import { decodeSegment } from "@/lib/runPath";

/** What Next.js hands a page under /probes/ID. */
export type ProbeRouteProps = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The title of a page under /probes/ID: `what ID` (the id cut to 80 characters). */
export function probeTitle(what: string) {
  return async ({ params }: ProbeRouteProps): Promise<Metadata> => {
    const id = decodeSegment((await params).id);
    return { title: id ? `${what} ${id.slice(0, 80)}` : "Not found" };
  };
}

/** The probe a page under /probes/ID shows, as it is now; 404 for an id that does not decode or is not stored. */
export async function probeOfRoute(
  props: ProbeRouteProps,
): Promise<{ id: string; db: Db; current: StoredProbe }> {
  const id = decodeSegment((await props.params).id);
  if (id === null) notFound();
  const db = getDb();
  const current = getProbe(db, id);
  if (!current) notFound();
  return { id, db, current };
}
