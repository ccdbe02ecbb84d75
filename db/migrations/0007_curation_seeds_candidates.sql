CREATE TABLE `curation_candidates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`seed_id` text NOT NULL,
	`domain` text NOT NULL,
	`status` text NOT NULL,
	`rejection` text,
	`reason` text,
	`candidate` text,
	`replays` text DEFAULT '[]' NOT NULL,
	`scenario_id` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`seed_id`) REFERENCES `seeds`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`scenario_id`) REFERENCES `scenarios`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `curation_candidates_seed_uq` ON `curation_candidates` (`seed_id`);--> statement-breakpoint
CREATE INDEX `curation_candidates_domain_idx` ON `curation_candidates` (`domain`,`status`);--> statement-breakpoint
CREATE TABLE `seeds` (
	`id` text PRIMARY KEY NOT NULL,
	`domain` text NOT NULL,
	`title` text NOT NULL,
	`report` text NOT NULL,
	`sources` text NOT NULL,
	`source_kind` text NOT NULL,
	`provenance` text NOT NULL,
	`dedupe_key` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `seeds_dedupe_key_uq` ON `seeds` (`dedupe_key`);--> statement-breakpoint
CREATE INDEX `seeds_domain_idx` ON `seeds` (`domain`);--> statement-breakpoint
ALTER TABLE `llm_calls` ADD `reply_form` text;