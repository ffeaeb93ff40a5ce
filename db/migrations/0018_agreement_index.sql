CREATE TABLE `blind_pattern_counts` (
	`run_id` integer NOT NULL,
	`probe_id` text NOT NULL,
	`field` text NOT NULL,
	`round_id` integer NOT NULL,
	`pattern` text NOT NULL,
	`n` integer NOT NULL,
	PRIMARY KEY(`run_id`, `probe_id`, `field`, `round_id`, `pattern`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `blind_pattern_counts_round` ON `blind_pattern_counts` (`round_id`);--> statement-breakpoint
CREATE TABLE `blind_units` (
	`trace_id` integer NOT NULL,
	`field` text NOT NULL,
	`run_id` integer NOT NULL,
	`probe_id` text NOT NULL,
	`round_id` integer DEFAULT 0 NOT NULL,
	`pattern` text NOT NULL,
	`size` integer NOT NULL,
	PRIMARY KEY(`trace_id`, `field`),
	FOREIGN KEY (`trace_id`) REFERENCES `traces`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
-- Each reviewer's first blind review of a field counts for agreement (DESIGN.md, "Blind rounds").
-- A blind review written or deleted makes its field's unit again; a unit of two labels or more
-- adds one to its pattern's count, and takes it back when it goes (made again, or its trace
-- deleted). Counts of a deleted run go with it; counts that fall to 0 stay (read n > 0).
CREATE TRIGGER `blind_units_count` AFTER INSERT ON `blind_units` WHEN new.`size` >= 2
BEGIN
	INSERT INTO `blind_pattern_counts` (`run_id`, `probe_id`, `field`, `round_id`, `pattern`, `n`)
	VALUES (new.`run_id`, new.`probe_id`, new.`field`, new.`round_id`, new.`pattern`, 1)
	ON CONFLICT DO UPDATE SET `n` = `n` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `blind_units_uncount` AFTER DELETE ON `blind_units` WHEN old.`size` >= 2
BEGIN
	UPDATE `blind_pattern_counts` SET `n` = `n` - 1
	WHERE `run_id` = old.`run_id` AND `probe_id` = old.`probe_id` AND `field` = old.`field`
		AND `round_id` = old.`round_id` AND `pattern` = old.`pattern`;
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_blind_agreement_insert` AFTER INSERT ON `reviews` WHEN new.`kind` = 'blind'
BEGIN
	DELETE FROM `blind_units` WHERE `trace_id` = new.`trace_id` AND `field` = new.`field`;
	INSERT INTO `blind_units` (`trace_id`, `field`, `run_id`, `probe_id`, `round_id`, `pattern`, `size`)
	SELECT new.`trace_id`, new.`field`, t.`run_id`, t.`probe_id`,
		coalesce((SELECT `round_id` FROM `reviews` WHERE `trace_id` = new.`trace_id` AND `field` = new.`field` AND `kind` = 'blind' ORDER BY `id` LIMIT 1), 0),
		p.`pattern`, json_array_length(p.`pattern`)
	FROM `traces` t, (
		SELECT json_group_array(json_array(`reviewer`, `label`) ORDER BY `reviewer`) AS `pattern`
		FROM (SELECT `reviewer`, `label`, min(`id`) FROM `reviews` WHERE `trace_id` = new.`trace_id` AND `field` = new.`field` AND `kind` = 'blind' GROUP BY `reviewer`) WHERE `label` IS NOT NULL
	) p
	WHERE t.`id` = new.`trace_id` AND json_array_length(p.`pattern`) > 0;
END;
--> statement-breakpoint
CREATE TRIGGER `reviews_blind_agreement_delete` AFTER DELETE ON `reviews` WHEN old.`kind` = 'blind'
BEGIN
	DELETE FROM `blind_units` WHERE `trace_id` = old.`trace_id` AND `field` = old.`field`;
	INSERT INTO `blind_units` (`trace_id`, `field`, `run_id`, `probe_id`, `round_id`, `pattern`, `size`)
	SELECT old.`trace_id`, old.`field`, t.`run_id`, t.`probe_id`,
		coalesce((SELECT `round_id` FROM `reviews` WHERE `trace_id` = old.`trace_id` AND `field` = old.`field` AND `kind` = 'blind' ORDER BY `id` LIMIT 1), 0),
		p.`pattern`, json_array_length(p.`pattern`)
	FROM `traces` t, (
		SELECT json_group_array(json_array(`reviewer`, `label`) ORDER BY `reviewer`) AS `pattern`
		FROM (SELECT `reviewer`, `label`, min(`id`) FROM `reviews` WHERE `trace_id` = old.`trace_id` AND `field` = old.`field` AND `kind` = 'blind' GROUP BY `reviewer`) WHERE `label` IS NOT NULL
	) p
	WHERE t.`id` = old.`trace_id` AND json_array_length(p.`pattern`) > 0;
END;
--> statement-breakpoint
-- Blind reviews written before these counts existed (the unit trigger counts them).
INSERT INTO `blind_units` (`trace_id`, `field`, `run_id`, `probe_id`, `round_id`, `pattern`, `size`)
SELECT f.`trace_id`, f.`field`, t.`run_id`, t.`probe_id`,
	coalesce((SELECT r.`round_id` FROM `reviews` r WHERE r.`trace_id` = f.`trace_id` AND r.`field` = f.`field` AND r.`kind` = 'blind' ORDER BY r.`id` LIMIT 1), 0),
	json_group_array(json_array(f.`reviewer`, f.`label`) ORDER BY f.`reviewer`), count(*)
FROM (
	SELECT `trace_id`, `field`, `reviewer`, `label`, min(`id`) FROM `reviews` WHERE `kind` = 'blind'
	GROUP BY `trace_id`, `field`, `reviewer`
) f JOIN `traces` t ON t.`id` = f.`trace_id`
WHERE f.`label` IS NOT NULL
GROUP BY f.`trace_id`, f.`field`;
