ALTER TABLE `runs` ADD `settings_hash` text;--> statement-breakpoint
ALTER TABLE `runs` ADD `settings_key` text;--> statement-breakpoint
CREATE INDEX `runs_settings_hash_idx` ON `runs` (`settings_hash`);--> statement-breakpoint
CREATE INDEX `runs_settings_key_idx` ON `runs` (`settings_key`);