-- Who runs an ingest (pid and host, and the time of its last batch), so the next ingest or start
-- can tell a dead one (marked `interrupted`) from one still running in another process; what it
-- reported (the runs it went to, the files it could not read, why it stopped), for /ingests.
ALTER TABLE `ingest_batches` ADD COLUMN `pid` integer;
--> statement-breakpoint
ALTER TABLE `ingest_batches` ADD COLUMN `host` text;
--> statement-breakpoint
ALTER TABLE `ingest_batches` ADD COLUMN `heartbeat_at` text;
--> statement-breakpoint
ALTER TABLE `ingest_batches` ADD COLUMN `runs` text;
--> statement-breakpoint
ALTER TABLE `ingest_batches` ADD COLUMN `unreadable` text;
--> statement-breakpoint
ALTER TABLE `ingest_batches` ADD COLUMN `error` text;
--> statement-breakpoint
CREATE INDEX `ingest_batches_running` ON `ingest_batches` (`status`) WHERE `status` = 'running';
--> statement-breakpoint
-- Rejected records whose file sent no good record to any run, and whose default run does not
-- exist, belong to no run (rejected records alone never create one): they are listed with their
-- ingest, once per (source, line, content) like the others.
CREATE UNIQUE INDEX `ingest_errors_runless` ON `ingest_errors` (`source`, `line`, `hash`) WHERE `run_id` IS NULL;
--> statement-breakpoint
-- An ingest's rejected records in reading order, paged on /ingests/ID.
CREATE INDEX `ingest_errors_batch_order` ON `ingest_errors` (`batch_id`, `file`, `line`);
