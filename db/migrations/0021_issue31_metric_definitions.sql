DROP INDEX `metric_values_subject_uq`;--> statement-breakpoint
ALTER TABLE `metric_values` ADD `definitions` text DEFAULT 'spec' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `metric_values_subject_uq` ON `metric_values` (`subject_kind`,`subject_id`,`evaluation_id`,`metric`,`definitions`);