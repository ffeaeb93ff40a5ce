-- A record matches a shape only when that shape's own fields are there (lib/ingest/traceRecord.ts):
-- before, a `trace` key alone made the seed runner's {label, trace} (a Langfuse trace export) and a
-- `response` object alone made our trace record, each stored as an empty answer scored DRIFT with no
-- flag. Such a trace is recognised by its empty stored response and an original whose `trace` (or
-- `response`) holds none of text, tool_call, tool_calls. Every run holding one is re-scored once by
-- the next `assumeprobe setup` (which `npm start` runs), as 0010 did: the re-read flags each such
-- trace `unrecognized_payload`. A new database has no traces, so nothing is queued.
INSERT INTO `rescores` (`run_id`, `reason`)
SELECT DISTINCT `run_id`, 'record-shapes'
FROM (
  SELECT `run_id`, CASE WHEN `form` = 'seed_runner' THEN '$.trace' ELSE '$.response' END AS `part`,
    CASE WHEN substr(CAST(`original` AS TEXT), 1, 1) = char(65279) THEN substr(CAST(`original` AS TEXT), 2)
      ELSE CAST(`original` AS TEXT) END AS `doc`
  FROM `traces`
  WHERE `form` IN ('seed_runner', 'trace')
    AND json_type(`response`, '$.text') = 'null'
    AND json_array_length(`response`, '$.tool_calls') = 0
)
WHERE CASE WHEN json_valid(`doc`) THEN
  json_type(`doc`, `part`) = 'object'
  AND json_type(`doc`, `part` || '.text') IS NULL
  AND json_type(`doc`, `part` || '.tool_call') IS NULL
  AND json_type(`doc`, `part` || '.tool_calls') IS NULL
ELSE 0 END;
