CREATE TABLE `review_rounds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`scope_kind` text NOT NULL,
	`scope_value` text NOT NULL,
	`reviews_per_field` integer DEFAULT 2 NOT NULL,
	`participants` text,
	`seed` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')) NOT NULL,
	`closed_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_rounds_name_unique` ON `review_rounds` (`name`);--> statement-breakpoint
CREATE TABLE `round_claims` (
	`round_id` integer NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`reviewer` text NOT NULL,
	`pos` integer NOT NULL,
	`expires_at` text NOT NULL,
	`state` text DEFAULT 'live' NOT NULL,
	PRIMARY KEY(`round_id`, `trace_id`, `field`, `reviewer`),
	FOREIGN KEY (`round_id`) REFERENCES `review_rounds`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `round_claims_reviewer` ON `round_claims` (`round_id`,`reviewer`,`pos`);--> statement-breakpoint
CREATE INDEX `round_claims_live` ON `round_claims` (`round_id`,`state`,`expires_at`);--> statement-breakpoint
CREATE TABLE `round_fields` (
	`round_id` integer NOT NULL,
	`pos` integer NOT NULL,
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`taken` integer DEFAULT 0 NOT NULL,
	`reviewed` integer DEFAULT 0 NOT NULL,
	`open` integer DEFAULT 1 NOT NULL,
	`state` text DEFAULT 'open' NOT NULL,
	PRIMARY KEY(`round_id`, `pos`),
	FOREIGN KEY (`round_id`) REFERENCES `review_rounds`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `round_fields_field` ON `round_fields` (`round_id`,`trace_id`,`field`);--> statement-breakpoint
CREATE INDEX `round_fields_open` ON `round_fields` (`round_id`,`open`,`pos`);--> statement-breakpoint
CREATE INDEX `round_fields_state` ON `round_fields` (`round_id`,`state`,`pos`);--> statement-breakpoint
CREATE INDEX `round_fields_trace` ON `round_fields` (`trace_id`,`field`);--> statement-breakpoint
ALTER TABLE `fixtures` ADD `settled` text DEFAULT 'single' NOT NULL;--> statement-breakpoint
ALTER TABLE `reviews` ADD `round_id` integer REFERENCES review_rounds(id) ON DELETE set null;--> statement-breakpoint
ALTER TABLE `reviews` ADD `kind` text DEFAULT 'review' NOT NULL;--> statement-breakpoint
CREATE INDEX `reviews_kind` ON `reviews` (`kind`,`trace_id`,`field`,`reviewer`,`id`);