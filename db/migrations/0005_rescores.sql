-- The tag signature layout changed (the trace flag unparsed_call took a bit; see
-- lib/ingest/tagSignature.ts): signatures stored with the old layout would make filters skip
-- traces they match. Every row reads -1 (every bit, always checked exactly) until a re-score
-- gives it its new signature.
UPDATE `trace_tags` SET `sig` = -1 WHERE `sig` <> -1;
--> statement-breakpoint
-- A re-score of one run's stored traces: its progress (traces up to after_trace_id are done, so a
-- stopped re-score resumes there), what it changed, and the transitions it made (report, JSON).
-- config names the probe configuration it applied; null: each trace's own probe version.
CREATE TABLE `rescores` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`reason` text NOT NULL,
	`config` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`after_trace_id` integer DEFAULT 0 NOT NULL,
	`scanned` integer DEFAULT 0 NOT NULL,
	`changed` integer DEFAULT 0 NOT NULL,
	`resigned` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`report` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `rescores_run` ON `rescores` (`run_id`,`id`);
--> statement-breakpoint
CREATE INDEX `rescores_status` ON `rescores` (`status`,`id`);
--> statement-breakpoint
-- Runs stored before this version were parsed and scored without the placeholder rule and the
-- flags unparsed_call and unrecognized_payload: each is re-scored once, by `assumeprobe setup`
-- (which `npm start` runs). A new database has no runs, so nothing is queued.
INSERT INTO `rescores` (`run_id`, `reason`) SELECT `id`, 'parser-flags' FROM `runs`;
