-- The shared lexicon (DESIGN.md, "Tuning the scorer"): each saved version holds the whole lexicon,
-- one row per field name with its terms (a JSON array, normalized) and its ask rule, with who
-- saved it and how (a page, the command line, a fixture import). Version 0, the empty lexicon
-- the product starts with, has no row.
CREATE TABLE `lexicon_versions` (
	`version` integer PRIMARY KEY NOT NULL,
	`saved_by` text NOT NULL,
	`origin` text DEFAULT 'edit' NOT NULL,
	`note` text DEFAULT '' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `lexicon_entries` (
	`version` integer NOT NULL,
	`field` text NOT NULL,
	`terms` text NOT NULL,
	`rule` text DEFAULT 'anywhere' NOT NULL CHECK (`rule` IN ('anywhere', 'question')),
	PRIMARY KEY(`version`, `field`),
	FOREIGN KEY (`version`) REFERENCES `lexicon_versions`(`version`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
-- Who saved a probe version made by editing its scoring configuration in the product (null for
-- versions from files, records and imports).
ALTER TABLE `probe_versions` ADD `saved_by` text;
--> statement-breakpoint
-- Set once a probe's scoring configuration was edited in the product: later records, probe files
-- and built-in updates that bring another world make a version that keeps the edited
-- configuration, and never make another configuration current.
ALTER TABLE `probes` ADD `configuration_edited` integer DEFAULT false NOT NULL;
--> statement-breakpoint
-- The lexicon version that scored a trace (0: none), beside its probe version. A re-score that
-- leaves a trace's result as it is leaves both as they are: they still give that result.
ALTER TABLE `traces` ADD `lexicon_version` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
DROP TRIGGER `traces_run_scoring`;
--> statement-breakpoint
CREATE TRIGGER `traces_run_scoring` AFTER INSERT ON `traces`
BEGIN
	INSERT OR IGNORE INTO `run_scoring` (`run_id`, `probe_id`, `probe_version`, `lexicon_version`)
	VALUES (new.`run_id`, new.`probe_id`, new.`probe_version`, new.`lexicon_version`);
END;
--> statement-breakpoint
-- A re-score started from the dashboard runs in a child process that holds it by a lease (as a
-- bulk relabel does); requested_by is who asked for it.
ALTER TABLE `rescores` ADD `requested_by` text;
--> statement-breakpoint
ALTER TABLE `rescores` ADD `lease_owner` text;
--> statement-breakpoint
ALTER TABLE `rescores` ADD `lease_until` integer;
