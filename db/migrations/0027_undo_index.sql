DROP INDEX `assignments_annotator_status_idx`;--> statement-breakpoint
CREATE INDEX `assignments_annotator_status_submitted_idx` ON `assignments` (`annotator_id`,`status`,`submitted_at`,`id`);