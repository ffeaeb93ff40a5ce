-- Curated fixtures (DESIGN.md, "Curated fixtures"). 0000 created fixture tables that nothing ever
-- wrote: they are rebuilt in the shape the design needs.
-- fixture_worlds: each world snapshot once (the fixtures of one probe version share it).
-- fixtures: identity is SHA-256 of the canonical JSON of (world, response, field), unique within
-- a set; history holds every expected label it had; source is the trace reference as it was when
-- the fixture was added (source_trace_id follows the trace while it exists).
-- fixture_runs / fixture_results: every re-run of a set with its scorer version, and per fixture
-- the label, the expected label then, the outcome, its change since the previous re-run and why.
DROP TABLE `fixture_results`;
--> statement-breakpoint
DROP TABLE `fixture_runs`;
--> statement-breakpoint
DROP TABLE `fixtures`;
--> statement-breakpoint
DROP TABLE `fixture_sets`;
--> statement-breakpoint
CREATE TABLE `fixture_sets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`builtin` integer DEFAULT false NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fixture_sets_name_unique` ON `fixture_sets` (`name`);
--> statement-breakpoint
CREATE TABLE `fixture_worlds` (
	`digest` text PRIMARY KEY NOT NULL,
	`probe_id` text NOT NULL,
	`world` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `fixtures` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`set_id` integer NOT NULL,
	`identity` text NOT NULL,
	`probe_id` text NOT NULL,
	`world_digest` text NOT NULL,
	`response` text NOT NULL,
	`field` text NOT NULL,
	`expected` text NOT NULL CHECK (`expected` IN ('ASK', 'OMIT', 'COPY', 'INJECT', 'DRIFT', 'ERROR')),
	`reviewer` text NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`source` text,
	`source_trace_id` integer,
	`history` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`updated_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `fixture_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`world_digest`) REFERENCES `fixture_worlds`(`digest`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`source_trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `fixtures_identity` ON `fixtures` (`set_id`,`identity`);
--> statement-breakpoint
CREATE INDEX `fixtures_set` ON `fixtures` (`set_id`,`id`);
--> statement-breakpoint
CREATE INDEX `fixtures_source` ON `fixtures` (`source_trace_id`);
--> statement-breakpoint
CREATE INDEX `fixtures_world` ON `fixtures` (`world_digest`);
--> statement-breakpoint
CREATE TABLE `fixture_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`set_id` integer NOT NULL,
	`scorer_version` text NOT NULL,
	`versions` text NOT NULL,
	`config` text,
	`origin` text NOT NULL,
	`total` integer NOT NULL,
	`passed` integer NOT NULL,
	`failed` integer NOT NULL,
	`broke` integer NOT NULL,
	`fixed` integer NOT NULL,
	`added` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	FOREIGN KEY (`set_id`) REFERENCES `fixture_sets`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fixture_runs_set` ON `fixture_runs` (`set_id`,`id`);
--> statement-breakpoint
CREATE TABLE `fixture_results` (
	`run_id` integer NOT NULL,
	`fixture_id` integer NOT NULL,
	`label` text NOT NULL,
	`expected` text NOT NULL,
	`passed` integer NOT NULL,
	`change` text,
	`why` text,
	PRIMARY KEY(`run_id`, `fixture_id`),
	FOREIGN KEY (`run_id`) REFERENCES `fixture_runs`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`fixture_id`) REFERENCES `fixtures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `fixture_results_fixture` ON `fixture_results` (`fixture_id`,`run_id`);
