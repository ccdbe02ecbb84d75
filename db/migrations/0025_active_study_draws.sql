CREATE TABLE `study_draws` (
	`study_id` integer NOT NULL,
	`run_id` text NOT NULL,
	`mediator` text NOT NULL,
	`uncertainty` real NOT NULL,
	`size` real NOT NULL,
	`key` real NOT NULL,
	`position` integer,
	`drawn_at` text,
	PRIMARY KEY(`study_id`, `run_id`),
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`run_id`) REFERENCES `runs`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `study_draws_study_position_uq` ON `study_draws` (`study_id`,`position`);--> statement-breakpoint
-- The dashboard reads the draws (its draw log and the active estimate): a draw moves its study's mark. Inserts come
-- with the study's own insert and draws with their items', which move it already; the update trigger is for any other.
CREATE TRIGGER `data_versions_study_draws_update` AFTER UPDATE ON `study_draws` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.study_id, 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
