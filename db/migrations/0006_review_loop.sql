-- The review loop (DESIGN.md, "The review loop").
-- reviews: a clear is a review with no label, and every review names the review it replaced (the
-- field's current one when it was written: what undo goes back to, and what a conflict checks).
-- SQLite cannot drop NOT NULL in place: the table is rebuilt, keeping its rows (each one's
-- `replaces` is the field's previous review).
CREATE TABLE `reviews_new` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`label` text CHECK (`label` IS NULL OR `label` IN ('ASK', 'OMIT', 'COPY', 'INJECT', 'DRIFT', 'ERROR')),
	`reviewer` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`replaces` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `reviews_new` (`id`, `trace_id`, `field`, `label`, `reviewer`, `note`, `replaces`, `created_at`)
SELECT r.`id`, r.`trace_id`, r.`field`, upper(r.`label`), r.`reviewer`, r.`note`,
	(SELECT max(p.`id`) FROM `reviews` p WHERE p.`trace_id` = r.`trace_id` AND p.`field` = r.`field` AND p.`id` < r.`id`),
	r.`created_at`
FROM `reviews` r WHERE upper(r.`label`) IN ('ASK', 'OMIT', 'COPY', 'INJECT', 'DRIFT', 'ERROR');
--> statement-breakpoint
DROP TABLE `reviews`;
--> statement-breakpoint
ALTER TABLE `reviews_new` RENAME TO `reviews`;
--> statement-breakpoint
CREATE INDEX `reviews_trace` ON `reviews` (`trace_id`,`field`,`id`);
--> statement-breakpoint
-- Which probe version (and, once the lexicon exists, lexicon version) scored each probe's traces
-- in a run. A trigger records it for every writer of traces; a re-score replaces a run's rows.
CREATE TABLE `run_scoring` (
	`run_id` integer NOT NULL,
	`probe_id` text NOT NULL,
	`probe_version` integer NOT NULL,
	`lexicon_version` integer DEFAULT 0 NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`run_id`, `probe_id`, `probe_version`, `lexicon_version`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT OR IGNORE INTO `run_scoring` (`run_id`, `probe_id`, `probe_version`)
SELECT DISTINCT `run_id`, `probe_id`, `probe_version` FROM `traces`;
--> statement-breakpoint
CREATE TRIGGER `traces_run_scoring` AFTER INSERT ON `traces`
BEGIN
	INSERT OR IGNORE INTO `run_scoring` (`run_id`, `probe_id`, `probe_version`)
	VALUES (new.`run_id`, new.`probe_id`, new.`probe_version`);
END;
--> statement-breakpoint
-- A bulk relabel of a run page's filter: written in short batches from `cursor` on, so it resumes
-- after a reload or a restart. `seen_review_id` is the newest review when the count was shown:
-- a field whose review is newer changed since, and is skipped and listed (bulk_review_skips).
CREATE TABLE `bulk_reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`filter` text NOT NULL,
	`field` text NOT NULL,
	`label` text CHECK (`label` IS NULL OR `label` IN ('ASK', 'OMIT', 'COPY', 'INJECT', 'DRIFT', 'ERROR')),
	`reviewer` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`total` integer NOT NULL,
	`seen_review_id` integer NOT NULL,
	`last_trace_id` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`written` integer DEFAULT 0 NOT NULL,
	`skipped` integer DEFAULT 0 NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`error` text,
	`lease_owner` text,
	`lease_until` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `bulk_reviews_run` ON `bulk_reviews` (`run_id`,`id`);
--> statement-breakpoint
CREATE TABLE `bulk_review_skips` (
	`job_id` integer NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`review_id` integer NOT NULL,
	PRIMARY KEY(`job_id`, `trace_id`, `field`),
	FOREIGN KEY (`job_id`) REFERENCES `bulk_reviews`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
