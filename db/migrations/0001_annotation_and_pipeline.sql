CREATE TABLE `ab_pairs` (
	`id` text PRIMARY KEY NOT NULL,
	`scenario_id` text NOT NULL,
	`run_a_id` text NOT NULL,
	`run_b_id` text NOT NULL,
	`target_party` text NOT NULL,
	`level_a` real NOT NULL,
	`level_b` real NOT NULL,
	`opponent_level` real,
	FOREIGN KEY (`scenario_id`) REFERENCES `scenarios`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_a_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_b_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ab_pairs_scenario_idx` ON `ab_pairs` (`scenario_id`);--> statement-breakpoint
CREATE TABLE `intervention_judgments` (
	`run_id` text NOT NULL,
	`turn_id` integer NOT NULL,
	`backbone` text NOT NULL,
	`perception_alignment` integer NOT NULL,
	`emotional_dynamics` integer NOT NULL,
	`cognitive_challenges` integer NOT NULL,
	`communication_breakdowns` integer NOT NULL,
	`reason` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	PRIMARY KEY(`run_id`, `turn_id`, `backbone`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `label_drafts` (
	`study_item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`payload` text NOT NULL,
	`updated_at` text NOT NULL,
	PRIMARY KEY(`study_item_id`, `annotator_id`),
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `llm_calls` (
	`cache_key` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`base_url` text NOT NULL,
	`model` text NOT NULL,
	`request` text NOT NULL,
	`response` text,
	`parsed` text,
	`status` text NOT NULL,
	`error` text,
	`prompt_tokens` integer DEFAULT 0 NOT NULL,
	`completion_tokens` integer DEFAULT 0 NOT NULL,
	`cost_usd` real DEFAULT 0 NOT NULL,
	`attempts` integer DEFAULT 1 NOT NULL,
	`latency_ms` integer DEFAULT 0 NOT NULL,
	`subject` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `llm_calls_role_idx` ON `llm_calls` (`role`);--> statement-breakpoint
CREATE INDEX `llm_calls_subject_idx` ON `llm_calls` (`subject`);--> statement-breakpoint
CREATE TABLE `metric_values` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subject_kind` text NOT NULL,
	`subject_id` text NOT NULL,
	`evaluation_id` text DEFAULT '' NOT NULL,
	`metric` text NOT NULL,
	`value` real,
	`detail` text,
	`params` text NOT NULL,
	`computed_at` text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `metric_values_subject_uq` ON `metric_values` (`subject_kind`,`subject_id`,`evaluation_id`,`metric`);--> statement-breakpoint
CREATE INDEX `metric_values_metric_idx` ON `metric_values` (`metric`);--> statement-breakpoint
CREATE TABLE `qualification_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`annotator_id` integer NOT NULL,
	`test_id` text NOT NULL,
	`answers` text NOT NULL,
	`correct` integer NOT NULL,
	`total` integer NOT NULL,
	`passed` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `qualification_attempts_annotator_idx` ON `qualification_attempts` (`annotator_id`);--> statement-breakpoint
ALTER TABLE `annotators` ADD `qualified_at` text;--> statement-breakpoint
ALTER TABLE `annotators` ADD `active` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `study_items` ADD `ab_pair_id` text REFERENCES ab_pairs(id);--> statement-breakpoint
ALTER TABLE `study_items` ADD `run_id` text REFERENCES runs(id);--> statement-breakpoint
CREATE INDEX `study_items_ab_pair_idx` ON `study_items` (`ab_pair_id`);