CREATE TABLE `fixture_results` (
	`run_id` integer NOT NULL,
	`fixture_id` integer NOT NULL,
	`label` text NOT NULL,
	`passed` integer NOT NULL,
	PRIMARY KEY(`run_id`, `fixture_id`),
	FOREIGN KEY (`run_id`) REFERENCES `fixture_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`fixture_id`) REFERENCES `fixtures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fixture_results_fixture` ON `fixture_results` (`fixture_id`);--> statement-breakpoint
CREATE TABLE `fixture_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`set_id` integer NOT NULL,
	`scorer_version` text NOT NULL,
	`config` text,
	`passed` integer NOT NULL,
	`failed` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `fixture_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `fixture_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`builtin` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fixture_sets_name_unique` ON `fixture_sets` (`name`);--> statement-breakpoint
CREATE TABLE `fixtures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`set_id` integer NOT NULL,
	`probe_id` text NOT NULL,
	`world` text NOT NULL,
	`response` text NOT NULL,
	`field` text NOT NULL,
	`expected` text NOT NULL,
	`reviewer` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`source_trace_id` integer,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `fixture_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `fixtures_set` ON `fixtures` (`set_id`,`id`);--> statement-breakpoint
CREATE INDEX `fixtures_source` ON `fixtures` (`source_trace_id`);--> statement-breakpoint
CREATE TABLE `ingest_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`origin` text NOT NULL,
	`files` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`records` integer DEFAULT 0 NOT NULL,
	`ingested` integer DEFAULT 0 NOT NULL,
	`duplicates` integer DEFAULT 0 NOT NULL,
	`rejected` integer DEFAULT 0 NOT NULL,
	`started_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`finished_at` text
);
--> statement-breakpoint
CREATE TABLE `ingest_errors` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer,
	`batch_id` integer,
	`file` text NOT NULL,
	`source` text NOT NULL,
	`line` integer NOT NULL,
	`reason` text NOT NULL,
	`raw` text NOT NULL,
	`hash` blob NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`batch_id`) REFERENCES `ingest_batches`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `ingest_errors_identity` ON `ingest_errors` (`run_id`,`source`,`line`,`hash`);--> statement-breakpoint
CREATE INDEX `ingest_errors_batch` ON `ingest_errors` (`batch_id`);--> statement-breakpoint
CREATE TABLE `probe_versions` (
	`probe_id` text NOT NULL,
	`version` integer NOT NULL,
	`definition` text NOT NULL,
	`digest` text NOT NULL,
	`origin` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	PRIMARY KEY(`probe_id`, `version`),
	FOREIGN KEY (`probe_id`) REFERENCES `probes`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `probe_versions_digest` ON `probe_versions` (`probe_id`,`digest`);--> statement-breakpoint
CREATE TABLE `probes` (
	`id` text PRIMARY KEY NOT NULL,
	`current_version` integer NOT NULL,
	`builtin` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`label` text NOT NULL,
	`reviewer` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `reviews_trace` ON `reviews` (`trace_id`,`field`,`id`);--> statement-breakpoint
CREATE TABLE `run_counts` (
	`run_id` integer NOT NULL,
	`probe_id` text NOT NULL,
	`tag_id` integer NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`run_id`, `probe_id`, `tag_id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`model` text,
	`params` text,
	`trace_count` integer DEFAULT 0 NOT NULL,
	`rejected_count` integer DEFAULT 0 NOT NULL,
	`mismatch_count` integer DEFAULT 0 NOT NULL,
	`first_started_at` text,
	`last_started_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `runs_name_unique` ON `runs` (`name`);--> statement-breakpoint
CREATE TABLE `tag_names` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tag_names_name_unique` ON `tag_names` (`name`);--> statement-breakpoint
CREATE TABLE `traces` (
	`id` integer PRIMARY KEY NOT NULL,
	`run_id` integer NOT NULL,
	`batch_id` integer,
	`probe_id` text NOT NULL,
	`probe_version` integer NOT NULL,
	`ext_id` text,
	`identity` blob NOT NULL,
	`hash` blob NOT NULL,
	`source` text NOT NULL,
	`line` integer NOT NULL,
	`form` text NOT NULL,
	`model` text,
	`payload_model` text,
	`started_at` text,
	`latency_ms` real,
	`gate` text NOT NULL,
	`labels` text NOT NULL,
	`result` text NOT NULL,
	`response` text NOT NULL,
	`recorded` text,
	`human` text,
	`original` blob NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `traces_identity` ON `traces` (`run_id`,`identity`);--> statement-breakpoint
CREATE INDEX `traces_run` ON `traces` (`run_id`,`id`);