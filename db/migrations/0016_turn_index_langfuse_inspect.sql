-- Agent turns (lib/ingest/agentTurns.ts, TURN_FORMS) of Langfuse traces and Inspect samples too: the
-- index of each turn's counted generations covers their forms, so a turn's choice reads a few rows.
DROP INDEX `traces_turn`;--> statement-breakpoint
CREATE INDEX `traces_turn` ON `traces` (`run_id`,`ext_id`) WHERE "traces"."form" IN ('otlp', 'phoenix', 'langfuse', 'inspect') AND "traces"."agent_step" = 0;