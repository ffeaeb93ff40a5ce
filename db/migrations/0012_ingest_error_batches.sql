CREATE TABLE `ingest_error_batches` (
	`batch_id` integer NOT NULL,
	`error_id` integer NOT NULL,
	`file` text NOT NULL,
	`line` integer NOT NULL,
	`reason` text NOT NULL,
	PRIMARY KEY(`batch_id`, `file`, `line`, `error_id`),
	FOREIGN KEY (`batch_id`) REFERENCES `ingest_batches`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`error_id`) REFERENCES `ingest_errors`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `ingest_error_batches_error` ON `ingest_error_batches` (`error_id`);
--> statement-breakpoint
INSERT INTO `ingest_error_batches` (`batch_id`, `error_id`, `file`, `line`, `reason`)
  SELECT `batch_id`, `id`, `file`, `line`, `reason` FROM `ingest_errors` WHERE `batch_id` IS NOT NULL;
