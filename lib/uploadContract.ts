import { z } from "zod";
import { FORMAT_CHOICES } from "./formats/detect";
import { ProbeIdSchema } from "./probe/schema";

/** Query parameters of POST /api/upload (the body is the file itself, streamed). */
export const UploadParamsSchema = z.object({
  filename: z.string().min(1, "filename is missing").max(300),
  run: z
    .string()
    .trim()
    .max(200)
    .optional()
    .transform((v) => v || undefined),
  model: z
    .string()
    .trim()
    .max(300)
    .optional()
    .transform((v) => v || undefined),
  probe: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .pipe(ProbeIdSchema.optional()),
  format: z.enum(FORMAT_CHOICES).default("auto"),
});
export type UploadParams = z.infer<typeof UploadParamsSchema>;

/** The largest upload the server takes: ASSUMEPROBE_UPLOAD_MAX_MB (default 1024 MB). */
export function uploadLimitBytes(): number {
  const mb = Number(process.env.ASSUMEPROBE_UPLOAD_MAX_MB ?? "1024");
  return (Number.isFinite(mb) && mb > 0 ? mb : 1024) * 1024 * 1024;
}
