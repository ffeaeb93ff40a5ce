-- The review queue and the agreement counts (DESIGN.md, "The review loop") read run_counts by tag
-- across runs (a queue rule's runs, every run's agreement pairs): an index by tag answers them
-- without reading every run's counts.
CREATE INDEX `run_counts_tag` ON `run_counts` (`tag_id`,`run_id`);
--> statement-breakpoint
-- Traces stored before this migration lack the tags the queue and the agreement counts read
-- (`q:`, `qp:`, `qd:`, `hp:`). Their rules read the response text, which SQL cannot judge, so
-- each run's traces up to `last_id` are tagged by `assumeprobe setup` (db/queries/tagBackfill.ts),
-- in short batches from `after_id` on; a run's row goes when it is done.
CREATE TABLE `tag_backfill` (
	`run_id` integer PRIMARY KEY NOT NULL,
	`after_id` integer DEFAULT 0 NOT NULL,
	`last_id` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `tag_backfill` (`run_id`, `last_id`) SELECT `run_id`, max(`id`) FROM `traces` GROUP BY `run_id`;
