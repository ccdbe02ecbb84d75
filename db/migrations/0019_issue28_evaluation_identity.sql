ALTER TABLE `evaluations` ADD `prompt_version` text;--> statement-breakpoint
CREATE INDEX `evaluations_run_method_idx` ON `evaluations` (`run_id`,`method`);