CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`annotator_id` integer NOT NULL,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`expires_at` text NOT NULL,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_annotator_idx` ON `sessions` (`annotator_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
ALTER TABLE `crowd_assignments` ADD `confirmed_at` text;--> statement-breakpoint
ALTER TABLE `labels` ADD `status` text DEFAULT 'counted' NOT NULL;--> statement-breakpoint
CREATE INDEX `labels_item_status_idx` ON `labels` (`study_item_id`,`status`);--> statement-breakpoint
ALTER TABLE `qualification_attempts` ADD `study_id` integer REFERENCES studies(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `qualification_attempts` ADD `network` text;--> statement-breakpoint
CREATE INDEX `qualification_attempts_study_network_idx` ON `qualification_attempts` (`study_id`,`network`);--> statement-breakpoint
-- Issue 12 backfill. Work a channel already vouched for is confirmed: results-file rows, rows
-- `mturk sync` wrote, and assignments MTurk has since approved or rejected.
UPDATE `crowd_assignments` SET `confirmed_at` = `created_at` WHERE `source` IN ('batch-import', 'sync') OR `status` IN ('approved', 'rejected');--> statement-breakpoint
-- ExternalQuestion answers MTurk has not listed yet, and every Prolific label (no export was ever
-- imported), wait for their channel's confirmation.
UPDATE `labels` SET `status` = 'pending' WHERE `id` IN (SELECT `label_id` FROM `crowd_assignments` WHERE `channel` = 'mturk' AND `confirmed_at` IS NULL AND `label_id` IS NOT NULL);--> statement-breakpoint
UPDATE `labels` SET `status` = 'pending' WHERE `annotator_id` IN (SELECT `id` FROM `annotators` WHERE `channel` = 'prolific');--> statement-breakpoint
-- k is a hard cap: counted labels beyond an item's k (oldest kept) become surplus.
UPDATE `labels` SET `status` = 'surplus' WHERE `status` = 'counted' AND (
  SELECT count(*) FROM `labels` AS `earlier` WHERE `earlier`.`study_item_id` = `labels`.`study_item_id` AND `earlier`.`status` = 'counted' AND `earlier`.`id` < `labels`.`id`
) >= (SELECT `s`.`labels_per_item` FROM `study_items` AS `i` JOIN `studies` AS `s` ON `s`.`id` = `i`.`study_id` WHERE `i`.`id` = `labels`.`study_item_id`);