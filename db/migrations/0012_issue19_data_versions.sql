CREATE TABLE `data_versions` (
	`scope` text PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
--> statement-breakpoint
-- Triggers keep data_versions (db/schema.ts) current: every write to a table the study dashboard reads bumps
-- its study's scope, or 'global' for shared tables; assignments (leases) are left out on purpose.
CREATE TRIGGER `data_versions_study_items_insert` AFTER INSERT ON `study_items` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_study_items_update` AFTER UPDATE ON `study_items` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_study_items_delete` AFTER DELETE ON `study_items` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || OLD.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_crowd_assignments_insert` AFTER INSERT ON `crowd_assignments` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_crowd_assignments_update` AFTER UPDATE ON `crowd_assignments` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_crowd_assignments_delete` AFTER DELETE ON `crowd_assignments` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || OLD.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_labels_insert` AFTER INSERT ON `labels` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_labels_update` AFTER UPDATE ON `labels` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_labels_delete` AFTER DELETE ON `labels` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = OLD.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_item_flags_insert` AFTER INSERT ON `item_flags` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_item_flags_update` AFTER UPDATE ON `item_flags` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_item_flags_delete` AFTER DELETE ON `item_flags` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = OLD.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_label_revisions_insert` AFTER INSERT ON `label_revisions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = NEW.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_label_revisions_update` AFTER UPDATE ON `label_revisions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = NEW.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_label_revisions_delete` AFTER DELETE ON `label_revisions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = OLD.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_studies_insert` AFTER INSERT ON `studies` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.id, 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_studies_update` AFTER UPDATE ON `studies` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.id, 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_studies_delete` AFTER DELETE ON `studies` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_runs_insert` AFTER INSERT ON `runs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_runs_update` AFTER UPDATE ON `runs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_runs_delete` AFTER DELETE ON `runs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_turns_insert` AFTER INSERT ON `turns` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_turns_update` AFTER UPDATE ON `turns` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_turns_delete` AFTER DELETE ON `turns` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluations_insert` AFTER INSERT ON `evaluations` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluations_update` AFTER UPDATE ON `evaluations` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluations_delete` AFTER DELETE ON `evaluations` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluation_scores_insert` AFTER INSERT ON `evaluation_scores` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluation_scores_update` AFTER UPDATE ON `evaluation_scores` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_evaluation_scores_delete` AFTER DELETE ON `evaluation_scores` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_snippets_insert` AFTER INSERT ON `snippets` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_snippets_update` AFTER UPDATE ON `snippets` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_snippets_delete` AFTER DELETE ON `snippets` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_ab_pairs_insert` AFTER INSERT ON `ab_pairs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_ab_pairs_update` AFTER UPDATE ON `ab_pairs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_ab_pairs_delete` AFTER DELETE ON `ab_pairs` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_scenarios_insert` AFTER INSERT ON `scenarios` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_scenarios_update` AFTER UPDATE ON `scenarios` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_scenarios_delete` AFTER DELETE ON `scenarios` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_conditions_insert` AFTER INSERT ON `conditions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_conditions_update` AFTER UPDATE ON `conditions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_conditions_delete` AFTER DELETE ON `conditions` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_annotators_insert` AFTER INSERT ON `annotators` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_annotators_update` AFTER UPDATE ON `annotators` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_annotators_delete` AFTER DELETE ON `annotators` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_settings_insert` AFTER INSERT ON `settings` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_settings_update` AFTER UPDATE ON `settings` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_settings_delete` AFTER DELETE ON `settings` BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
