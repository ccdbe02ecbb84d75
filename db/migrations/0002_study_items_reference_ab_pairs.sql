PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_study_items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`study_id` integer NOT NULL,
	`position` integer NOT NULL,
	`kind` text NOT NULL,
	`snippet_id` integer,
	`ab_pair_id` text,
	`run_id` text,
	`is_gold` integer DEFAULT false NOT NULL,
	`gold` text,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`snippet_id`) REFERENCES `snippets`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`ab_pair_id`) REFERENCES `ab_pairs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_study_items`("id", "study_id", "position", "kind", "snippet_id", "ab_pair_id", "run_id", "is_gold", "gold") SELECT "id", "study_id", "position", "kind", "snippet_id", "ab_pair_id", "run_id", "is_gold", "gold" FROM `study_items`;--> statement-breakpoint
DROP TABLE `study_items`;--> statement-breakpoint
ALTER TABLE `__new_study_items` RENAME TO `study_items`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `study_items_study_position_uq` ON `study_items` (`study_id`,`position`);--> statement-breakpoint
CREATE INDEX `study_items_snippet_idx` ON `study_items` (`snippet_id`);--> statement-breakpoint
CREATE INDEX `study_items_ab_pair_idx` ON `study_items` (`ab_pair_id`);