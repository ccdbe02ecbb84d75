CREATE TABLE `item_flags` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`comment` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`resolved_at` text,
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `item_flags_item_idx` ON `item_flags` (`study_item_id`);--> statement-breakpoint
ALTER TABLE `assignments` ADD `skipped_at` text;--> statement-breakpoint
ALTER TABLE `assignments` ADD `skip_reason` text;