-- An agent turn's traces (lib/ingest/agentTurns.ts) are found by their ext_id's prefix in a run.
CREATE INDEX `traces_turn` ON `traces` (`run_id`,`ext_id`) WHERE "traces"."form" IN ('otlp', 'phoenix');
--> statement-breakpoint
-- The tag signature layout changed (lib/ingest/tagSignature.ts): `agent_step` has a bit of its
-- own, recorded agreement moved to the shared bits. A stored signature made with the old layout
-- could skip a trace a filter matches; -1 (every bit) is always checked exactly.
UPDATE `trace_tags` SET `sig` = -1;
