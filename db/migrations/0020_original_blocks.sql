CREATE TABLE `original_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`codec` integer NOT NULL,
	`body` blob NOT NULL
);
--> statement-breakpoint
CREATE INDEX `original_blocks_run` ON `original_blocks` (`run_id`);--> statement-breakpoint
ALTER TABLE `traces` ADD `original_block` integer;--> statement-breakpoint
ALTER TABLE `traces` ADD `original_at` integer;--> statement-breakpoint
ALTER TABLE `traces` ADD `original_len` integer;--> statement-breakpoint
CREATE INDEX `traces_inline` ON `traces` (`id`) WHERE "traces"."original_block" IS NULL;