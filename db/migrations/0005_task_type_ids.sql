-- One id per task type (issue 11): the study item kind and the label payload's `kind` take the
-- task type's id, the string studies.type already holds.
UPDATE `study_items` SET `kind` = 'consensus-snippet' WHERE `kind` = 'snippet';--> statement-breakpoint
UPDATE `study_items` SET `kind` = 'ab-reactiveness' WHERE `kind` = 'ab-pair';--> statement-breakpoint
UPDATE `label_revisions` SET `payload` = json_set(`payload`, '$.kind', 'consensus-snippet') WHERE json_valid(`payload`) AND json_extract(`payload`, '$.kind') = 'consensus';--> statement-breakpoint
UPDATE `label_revisions` SET `payload` = json_set(`payload`, '$.kind', 'ab-reactiveness') WHERE json_valid(`payload`) AND json_extract(`payload`, '$.kind') = 'ab';--> statement-breakpoint
UPDATE `label_drafts` SET `payload` = json_set(`payload`, '$.kind', 'consensus-snippet') WHERE json_valid(`payload`) AND json_extract(`payload`, '$.kind') = 'consensus';--> statement-breakpoint
UPDATE `label_drafts` SET `payload` = json_set(`payload`, '$.kind', 'ab-reactiveness') WHERE json_valid(`payload`) AND json_extract(`payload`, '$.kind') = 'ab';--> statement-breakpoint
-- A crowd assignment's payload_hash is the sha256 of the payload as stored, old kind included,
-- which SQL cannot recompute: clear it, so a re-import of the same results is not refused as a
-- different answer (the stored label itself is never overwritten by a re-import).
UPDATE `crowd_assignments` SET `payload_hash` = NULL WHERE `payload_hash` IS NOT NULL;
