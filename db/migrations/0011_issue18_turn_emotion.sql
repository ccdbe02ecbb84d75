ALTER TABLE `turns` ADD `emotion` integer;--> statement-breakpoint
ALTER TABLE `turns` ADD `emotion_reason` text;