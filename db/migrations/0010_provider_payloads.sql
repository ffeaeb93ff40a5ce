-- Gemini, Bedrock Converse, Cohere v2 and Ollama payloads are read now (lib/probe/providerReaders.ts);
-- before, each scored as a silent DRIFT flagged unrecognized_payload. Every run holding such a
-- trace is re-scored once from its originals by the next `assumeprobe setup` (which `npm start`
-- runs), as 0005 did for the parser's flags. A new database has no runs, so nothing is queued.
INSERT INTO `rescores` (`run_id`, `reason`)
SELECT DISTINCT c.`run_id`, 'provider-payloads'
FROM `run_counts` c JOIN `tag_names` t ON t.`id` = c.`tag_id`
WHERE t.`name` = 'f:unrecognized_payload' AND c.`n` > 0;
