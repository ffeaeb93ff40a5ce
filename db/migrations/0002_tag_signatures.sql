-- Each tag row carries its trace's tag signature (lib/ingest/tagSignature.ts): a filter of two or
-- more tags scans its rarest tag's range and skips, without a lookup, the traces whose signature
-- lacks a bit of the others. Rows written before this migration read -1 (every bit): they are
-- always checked exactly, so old databases stay correct and get faster as new runs arrive.
ALTER TABLE `trace_tags` ADD COLUMN `sig` integer NOT NULL DEFAULT -1;
