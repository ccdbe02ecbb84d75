CREATE TABLE `annotators` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`username` text NOT NULL,
	`display_name` text NOT NULL,
	`role` text NOT NULL,
	`password_hash` text,
	`channel` text,
	`external_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `annotators_username_uq` ON `annotators` (`username`);--> statement-breakpoint
CREATE UNIQUE INDEX `annotators_channel_external_uq` ON `annotators` (`channel`,`external_id`);--> statement-breakpoint
CREATE TABLE `assignments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`status` text NOT NULL,
	`leased_at` text NOT NULL,
	`lease_expires_at` text NOT NULL,
	`submitted_at` text,
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `assignments_item_annotator_uq` ON `assignments` (`study_item_id`,`annotator_id`);--> statement-breakpoint
CREATE INDEX `assignments_annotator_status_idx` ON `assignments` (`annotator_id`,`status`);--> statement-breakpoint
CREATE TABLE `conditions` (
	`id` text PRIMARY KEY NOT NULL,
	`scenario_id` text NOT NULL,
	`axis` text NOT NULL,
	`variant` text NOT NULL,
	`expanded` text,
	FOREIGN KEY (`scenario_id`) REFERENCES `scenarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `conditions_scenario_axis_variant_uq` ON `conditions` (`scenario_id`,`axis`,`variant`);--> statement-breakpoint
CREATE TABLE `evaluation_scores` (
	`evaluation_id` text NOT NULL,
	`topic_id` text NOT NULL,
	`turn_id` integer NOT NULL,
	`score` real NOT NULL,
	`located` integer NOT NULL,
	`stances` text,
	PRIMARY KEY(`evaluation_id`, `topic_id`, `turn_id`),
	FOREIGN KEY (`evaluation_id`) REFERENCES `evaluations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `evaluations` (
	`id` text PRIMARY KEY NOT NULL,
	`run_id` text NOT NULL,
	`method` text NOT NULL,
	`backbone` text NOT NULL,
	`output` text NOT NULL,
	`errors` text,
	`recorded_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `evaluations_run_idx` ON `evaluations` (`run_id`);--> statement-breakpoint
CREATE INDEX `evaluations_method_backbone_idx` ON `evaluations` (`method`,`backbone`);--> statement-breakpoint
CREATE TABLE `label_revisions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`label_id` integer NOT NULL,
	`revision` integer NOT NULL,
	`payload` text NOT NULL,
	`client_token` text,
	`seconds_on_task` real,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`label_id`) REFERENCES `labels`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `label_revisions_label_revision_uq` ON `label_revisions` (`label_id`,`revision`);--> statement-breakpoint
CREATE UNIQUE INDEX `label_revisions_client_token_uq` ON `label_revisions` (`client_token`);--> statement-breakpoint
CREATE TABLE `labels` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_item_id` integer NOT NULL,
	`annotator_id` integer NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`study_item_id`) REFERENCES `study_items`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`annotator_id`) REFERENCES `annotators`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `labels_item_annotator_uq` ON `labels` (`study_item_id`,`annotator_id`);--> statement-breakpoint
CREATE INDEX `labels_annotator_idx` ON `labels` (`annotator_id`);--> statement-breakpoint
CREATE TABLE `matched_pairs` (
	`id` text PRIMARY KEY NOT NULL,
	`condition_id` text NOT NULL,
	`mediated_run_id` text NOT NULL,
	`unmediated_run_id` text NOT NULL,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`mediated_run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`unmediated_run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `matched_pairs_mediated_uq` ON `matched_pairs` (`mediated_run_id`);--> statement-breakpoint
CREATE INDEX `matched_pairs_condition_idx` ON `matched_pairs` (`condition_id`);--> statement-breakpoint
CREATE TABLE `runs` (
	`id` text PRIMARY KEY NOT NULL,
	`condition_id` text NOT NULL,
	`scenario_id` text NOT NULL,
	`mediated` integer NOT NULL,
	`mediator_backbone` text,
	`simulator_backbone` text NOT NULL,
	`outcome` text NOT NULL,
	`party_order` text NOT NULL,
	`total_turns` integer NOT NULL,
	`party_turns` integer NOT NULL,
	`mediator_turns` integer NOT NULL,
	`mediator_decisions` text,
	`config` text NOT NULL,
	`seed` integer,
	`recorded_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`condition_id`) REFERENCES `conditions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`scenario_id`) REFERENCES `scenarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `runs_condition_idx` ON `runs` (`condition_id`);--> statement-breakpoint
CREATE INDEX `runs_scenario_idx` ON `runs` (`scenario_id`);--> statement-breakpoint
CREATE INDEX `runs_mediator_idx` ON `runs` (`mediator_backbone`);--> statement-breakpoint
CREATE TABLE `scenarios` (
	`id` text PRIMARY KEY NOT NULL,
	`domain` text NOT NULL,
	`title` text NOT NULL,
	`background` text NOT NULL,
	`topics` text NOT NULL,
	`parties` text NOT NULL,
	`source` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `scenarios_domain_idx` ON `scenarios` (`domain`);--> statement-breakpoint
CREATE TABLE `snippets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` text NOT NULL,
	`position` integer NOT NULL,
	`start_turn` integer NOT NULL,
	`end_turn` integer NOT NULL,
	`is_last` integer NOT NULL,
	`is_partial` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `snippets_run_position_uq` ON `snippets` (`run_id`,`position`);--> statement-breakpoint
CREATE TABLE `studies` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`pool` text NOT NULL,
	`labels_per_item` integer NOT NULL,
	`guidelines` text DEFAULT '' NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`config` text DEFAULT '{}' NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `study_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`snippet_id` integer,
	`run_a_id` text,
	`run_b_id` text,
	`target_party` text,
	`level_a` real,
	`level_b` real,
	`is_gold` integer DEFAULT false NOT NULL,
	`gold` text,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`snippet_id`) REFERENCES `snippets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_a_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_b_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `study_items_study_position_uq` ON `study_items` (`study_id`,`position`);--> statement-breakpoint
CREATE INDEX `study_items_snippet_idx` ON `study_items` (`snippet_id`);--> statement-breakpoint
CREATE TABLE `turns` (
	`run_id` text NOT NULL,
	`turn_id` integer NOT NULL,
	`speaker` text NOT NULL,
	`role` text NOT NULL,
	`utterance` text NOT NULL,
	`thought` text,
	`signal` text,
	PRIMARY KEY(`run_id`, `turn_id`),
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE cascade
);
