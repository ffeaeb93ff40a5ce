-- Tables drizzle-kit cannot express (see db/schema.ts).
-- One row per filterable fact of a trace; any filter is an intersection of (run, tag) ranges,
-- each ordered by trace id, so keyset pages stay fast at a million traces in one run.
CREATE TABLE `trace_tags` (
	`run_id` integer NOT NULL,
	`tag_id` integer NOT NULL,
	`trace_id` integer NOT NULL,
	PRIMARY KEY (`run_id`, `tag_id`, `trace_id`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Full-text search over response text and argument values; rowid is the trace id.
CREATE VIRTUAL TABLE `trace_search` USING fts5(`body`, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
