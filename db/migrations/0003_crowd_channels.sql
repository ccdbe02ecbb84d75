CREATE TABLE `crowd_assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`external_id` text NOT NULL,
	`external_group_id` text,
	`study_id` integer NOT NULL,
	`study_item_id` integer,
	`annotator_id` integer NOT NULL,
	`label_id` integer,
	`payload_hash` text,
	`status` text NOT NULL,
	`reward_usd` real,
	`work_seconds` real,
	`accepted_at` text,
	`submitted_at` text,
	`decision` text,
	`decision_reason` text,
	`decided_at` text,
	`source` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `crowd_assignments_channel_external_uq` ON `crowd_assignments` (`channel`,`external_id`);--> statement-breakpoint
CREATE INDEX `crowd_assignments_study_idx` ON `crowd_assignments` (`study_id`,`channel`);--> statement-breakpoint
CREATE INDEX `crowd_assignments_annotator_idx` ON `crowd_assignments` (`annotator_id`);--> statement-breakpoint
CREATE TABLE `mturk_hits` (
	`hit_id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`hit_type_id` text NOT NULL,
	`study_id` integer NOT NULL,
	`study_item_id` integer NOT NULL,
	`max_assignments` integer NOT NULL,
	`reward_usd` real NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `mturk_hits_study_idx` ON `mturk_hits` (`study_id`,`environment`);--> statement-breakpoint
CREATE INDEX `mturk_hits_item_idx` ON `mturk_hits` (`study_item_id`);--> statement-breakpoint
CREATE TABLE `mturk_qualification_types` (
	`qualification_type_id` text PRIMARY KEY NOT NULL,
	`environment` text NOT NULL,
	`test_key` text NOT NULL,
	`name` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `mturk_qualification_types_env_test_uq` ON `mturk_qualification_types` (`environment`,`test_key`);