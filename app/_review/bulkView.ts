import type { BulkJob, bulkSkips } from "@/db/queries/bulkReviews";

/** A job as the run page shows it (no filter object crosses to the client). */
export interface BulkJobView {
  id: number;
  status: BulkJob["status"];
  field: string;
  label: string | null;
  reviewer: string;
  total: number;
  written: number;
  skipped: number;
  error: string | null;
  skips: { traceId: number; field: string; reviewer: string; label: string | null; createdAt: string }[];
}

export function bulkJobView(job: BulkJob, skips: ReturnType<typeof bulkSkips> = []): BulkJobView {
  return {
    id: job.id,
    status: job.status,
    field: job.field,
    label: job.label,
    reviewer: job.reviewer,
    total: job.total,
    written: job.written,
    skipped: job.skipped,
    error: job.error,
    skips: skips.map((s) => ({
      traceId: s.traceId,
      field: s.field,
      reviewer: s.review.reviewer,
      label: s.review.label,
      createdAt: s.review.createdAt,
    })),
  };
}
