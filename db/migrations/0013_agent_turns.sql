-- Agent turns (lib/ingest/agentTurns.ts): a trace's `agent_step` beside the flag in its score,
-- and the index of each turn's counted generations (a run and an ext_id prefix).
ALTER TABLE `traces` ADD `agent_step` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `traces_turn` ON `traces` (`run_id`,`ext_id`) WHERE "traces"."form" IN ('otlp', 'phoenix') AND "traces"."agent_step" = 0;--> statement-breakpoint
-- The tag signature layout changed (lib/ingest/tagSignature.ts): `agent_step` has a bit of its
-- own, recorded agreement moved to the shared bits. A stored signature made with the old layout
-- could skip a trace a filter matches; -1 (every bit) is always checked exactly.
UPDATE `trace_tags` SET `sig` = -1 WHERE `sig` <> -1;
