CREATE TABLE `bulk_fixture_add_changes` (
	`job_id` integer NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`review_id` integer NOT NULL,
	PRIMARY KEY(`job_id`, `trace_id`, `field`),
	FOREIGN KEY (`job_id`) REFERENCES `bulk_fixture_adds`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `bulk_fixture_adds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`filter` text NOT NULL,
	`field` text NOT NULL,
	`set_name` text NOT NULL,
	`created` integer DEFAULT false NOT NULL,
	`reviewer` text NOT NULL,
	`total` integer NOT NULL,
	`seen_review_id` integer NOT NULL,
	`last_trace_id` integer NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`added` integer DEFAULT 0 NOT NULL,
	`relabelled` integer DEFAULT 0 NOT NULL,
	`unchanged` integer DEFAULT 0 NOT NULL,
	`no_label` integer DEFAULT 0 NOT NULL,
	`changed` integer DEFAULT 0 NOT NULL,
	`batches` integer DEFAULT 0 NOT NULL,
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
CREATE INDEX `bulk_fixture_adds_run` ON `bulk_fixture_adds` (`run_id`,`id`);