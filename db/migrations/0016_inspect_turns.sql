-- Inspect samples are agent turns too (lib/ingest/agentTurns.ts): the index of each turn's counted
-- generations covers their traces.
DROP INDEX `traces_turn`;--> statement-breakpoint
CREATE INDEX `traces_turn` ON `traces` (`run_id`,`ext_id`) WHERE "traces"."form" IN ('otlp', 'phoenix', 'inspect') AND "traces"."agent_step" = 0;