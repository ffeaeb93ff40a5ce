import { exportResponse } from "@/app/_export/exportResponse";

export const dynamic = "force-dynamic";

/** `/api/export?run=NAME&FILTER`: the export of any run by name, `.` and `..` included (see lib/runPath.ts). */
export function GET(req: Request) {
  const params = new URL(req.url).searchParams;
  const run = params.get("run");
  if (!run) return new Response("the run parameter is missing (?run=NAME)\n", { status: 400 });
  params.delete("run");
  return exportResponse(run, params);
}
