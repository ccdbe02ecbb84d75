-- The triggers of the SQLite migrations (0012 data_versions, 0025 study_draws, 0026 allocation cursor and lease
-- marks), one PL/pgSQL function each, under the same names: what they keep current is described there.
-- Written from them by rule: IS NOT → IS DISTINCT FROM, scalar min → least, the upsert's version qualified.
--> statement-breakpoint
CREATE FUNCTION data_versions_study_items_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_study_items_insert AFTER INSERT ON study_items FOR EACH ROW EXECUTE FUNCTION data_versions_study_items_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_study_items_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_study_items_update AFTER UPDATE ON study_items FOR EACH ROW EXECUTE FUNCTION data_versions_study_items_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_study_items_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || OLD.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_study_items_delete AFTER DELETE ON study_items FOR EACH ROW EXECUTE FUNCTION data_versions_study_items_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_crowd_assignments_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_crowd_assignments_insert AFTER INSERT ON crowd_assignments FOR EACH ROW EXECUTE FUNCTION data_versions_crowd_assignments_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_crowd_assignments_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || NEW.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_crowd_assignments_update AFTER UPDATE ON crowd_assignments FOR EACH ROW EXECUTE FUNCTION data_versions_crowd_assignments_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_crowd_assignments_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || OLD.study_id, 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_crowd_assignments_delete AFTER DELETE ON crowd_assignments FOR EACH ROW EXECUTE FUNCTION data_versions_crowd_assignments_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_labels_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_labels_insert AFTER INSERT ON labels FOR EACH ROW EXECUTE FUNCTION data_versions_labels_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_labels_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_labels_update AFTER UPDATE ON labels FOR EACH ROW EXECUTE FUNCTION data_versions_labels_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_labels_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = OLD.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_labels_delete AFTER DELETE ON labels FOR EACH ROW EXECUTE FUNCTION data_versions_labels_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_item_flags_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_item_flags_insert AFTER INSERT ON item_flags FOR EACH ROW EXECUTE FUNCTION data_versions_item_flags_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_item_flags_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = NEW.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_item_flags_update AFTER UPDATE ON item_flags FOR EACH ROW EXECUTE FUNCTION data_versions_item_flags_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_item_flags_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT study_id FROM study_items WHERE id = OLD.study_item_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_item_flags_delete AFTER DELETE ON item_flags FOR EACH ROW EXECUTE FUNCTION data_versions_item_flags_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_label_revisions_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = NEW.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_label_revisions_insert AFTER INSERT ON label_revisions FOR EACH ROW EXECUTE FUNCTION data_versions_label_revisions_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_label_revisions_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = NEW.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_label_revisions_update AFTER UPDATE ON label_revisions FOR EACH ROW EXECUTE FUNCTION data_versions_label_revisions_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_label_revisions_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES (coalesce('study:' || (SELECT i.study_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE l.id = OLD.label_id), 'global'), 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_label_revisions_delete AFTER DELETE ON label_revisions FOR EACH ROW EXECUTE FUNCTION data_versions_label_revisions_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_studies_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.id, 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_studies_insert AFTER INSERT ON studies FOR EACH ROW EXECUTE FUNCTION data_versions_studies_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_studies_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.id, 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_studies_update AFTER UPDATE ON studies FOR EACH ROW EXECUTE FUNCTION data_versions_studies_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_studies_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_studies_delete AFTER DELETE ON studies FOR EACH ROW EXECUTE FUNCTION data_versions_studies_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_runs_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_runs_insert AFTER INSERT ON runs FOR EACH ROW EXECUTE FUNCTION data_versions_runs_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_runs_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_runs_update AFTER UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION data_versions_runs_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_runs_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_runs_delete AFTER DELETE ON runs FOR EACH ROW EXECUTE FUNCTION data_versions_runs_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_turns_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_turns_insert AFTER INSERT ON turns FOR EACH ROW EXECUTE FUNCTION data_versions_turns_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_turns_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_turns_update AFTER UPDATE ON turns FOR EACH ROW EXECUTE FUNCTION data_versions_turns_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_turns_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_turns_delete AFTER DELETE ON turns FOR EACH ROW EXECUTE FUNCTION data_versions_turns_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluations_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluations_insert AFTER INSERT ON evaluations FOR EACH ROW EXECUTE FUNCTION data_versions_evaluations_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluations_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluations_update AFTER UPDATE ON evaluations FOR EACH ROW EXECUTE FUNCTION data_versions_evaluations_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluations_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluations_delete AFTER DELETE ON evaluations FOR EACH ROW EXECUTE FUNCTION data_versions_evaluations_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluation_scores_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluation_scores_insert AFTER INSERT ON evaluation_scores FOR EACH ROW EXECUTE FUNCTION data_versions_evaluation_scores_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluation_scores_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluation_scores_update AFTER UPDATE ON evaluation_scores FOR EACH ROW EXECUTE FUNCTION data_versions_evaluation_scores_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_evaluation_scores_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_evaluation_scores_delete AFTER DELETE ON evaluation_scores FOR EACH ROW EXECUTE FUNCTION data_versions_evaluation_scores_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_snippets_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_snippets_insert AFTER INSERT ON snippets FOR EACH ROW EXECUTE FUNCTION data_versions_snippets_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_snippets_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_snippets_update AFTER UPDATE ON snippets FOR EACH ROW EXECUTE FUNCTION data_versions_snippets_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_snippets_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_snippets_delete AFTER DELETE ON snippets FOR EACH ROW EXECUTE FUNCTION data_versions_snippets_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_ab_pairs_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_ab_pairs_insert AFTER INSERT ON ab_pairs FOR EACH ROW EXECUTE FUNCTION data_versions_ab_pairs_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_ab_pairs_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_ab_pairs_update AFTER UPDATE ON ab_pairs FOR EACH ROW EXECUTE FUNCTION data_versions_ab_pairs_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_ab_pairs_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_ab_pairs_delete AFTER DELETE ON ab_pairs FOR EACH ROW EXECUTE FUNCTION data_versions_ab_pairs_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_scenarios_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_scenarios_insert AFTER INSERT ON scenarios FOR EACH ROW EXECUTE FUNCTION data_versions_scenarios_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_scenarios_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_scenarios_update AFTER UPDATE ON scenarios FOR EACH ROW EXECUTE FUNCTION data_versions_scenarios_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_scenarios_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_scenarios_delete AFTER DELETE ON scenarios FOR EACH ROW EXECUTE FUNCTION data_versions_scenarios_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_conditions_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_conditions_insert AFTER INSERT ON conditions FOR EACH ROW EXECUTE FUNCTION data_versions_conditions_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_conditions_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_conditions_update AFTER UPDATE ON conditions FOR EACH ROW EXECUTE FUNCTION data_versions_conditions_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_conditions_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_conditions_delete AFTER DELETE ON conditions FOR EACH ROW EXECUTE FUNCTION data_versions_conditions_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_annotators_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_annotators_insert AFTER INSERT ON annotators FOR EACH ROW EXECUTE FUNCTION data_versions_annotators_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_annotators_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_annotators_update AFTER UPDATE ON annotators FOR EACH ROW EXECUTE FUNCTION data_versions_annotators_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_annotators_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_annotators_delete AFTER DELETE ON annotators FOR EACH ROW EXECUTE FUNCTION data_versions_annotators_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_settings_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_settings_insert AFTER INSERT ON settings FOR EACH ROW EXECUTE FUNCTION data_versions_settings_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_settings_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_settings_update AFTER UPDATE ON settings FOR EACH ROW EXECUTE FUNCTION data_versions_settings_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_settings_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('global', 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_settings_delete AFTER DELETE ON settings FOR EACH ROW EXECUTE FUNCTION data_versions_settings_delete_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_study_draws_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) VALUES ('study:' || NEW.study_id, 1) ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_study_draws_update AFTER UPDATE ON study_draws FOR EACH ROW EXECUTE FUNCTION data_versions_study_draws_update_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_assignments_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_assignments_update AFTER UPDATE OF status, study_item_id, annotator_id ON assignments FOR EACH ROW WHEN (NEW.status IN ('released', 'skipped') OR NEW.study_item_id IS DISTINCT FROM OLD.study_item_id OR NEW.annotator_id IS DISTINCT FROM OLD.annotator_id) EXECUTE FUNCTION allocation_cursors_assignments_update_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_assignments_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_assignments_delete AFTER DELETE ON assignments FOR EACH ROW EXECUTE FUNCTION allocation_cursors_assignments_delete_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_labels_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_labels_update AFTER UPDATE OF status, study_item_id, annotator_id ON labels FOR EACH ROW WHEN ((NEW.status = 'pending' AND OLD.status IS DISTINCT FROM 'pending') OR NEW.study_item_id IS DISTINCT FROM OLD.study_item_id OR NEW.annotator_id IS DISTINCT FROM OLD.annotator_id) EXECUTE FUNCTION allocation_cursors_labels_update_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_labels_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_labels_delete AFTER DELETE ON labels FOR EACH ROW EXECUTE FUNCTION allocation_cursors_labels_delete_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_annotators_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM allocation_cursors;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_annotators_update AFTER UPDATE OF role, channel ON annotators FOR EACH ROW WHEN (NEW.role IS DISTINCT FROM OLD.role OR NEW.channel IS DISTINCT FROM OLD.channel) EXECUTE FUNCTION allocation_cursors_annotators_update_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_annotators_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM allocation_cursors;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_annotators_delete AFTER DELETE ON annotators FOR EACH ROW EXECUTE FUNCTION allocation_cursors_annotators_delete_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_studies_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM allocation_cursors WHERE study_id = NEW.id;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_studies_update AFTER UPDATE OF labels_per_item ON studies FOR EACH ROW WHEN (NEW.labels_per_item > OLD.labels_per_item) EXECUTE FUNCTION allocation_cursors_studies_update_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_study_items_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, NEW.position) WHERE study_id = NEW.study_id;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_study_items_insert AFTER INSERT ON study_items FOR EACH ROW EXECUTE FUNCTION allocation_cursors_study_items_insert_fn();
--> statement-breakpoint
CREATE FUNCTION allocation_cursors_study_items_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE allocation_cursors SET open_from = least(open_from, NEW.position) WHERE study_id = NEW.study_id;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER allocation_cursors_study_items_update AFTER UPDATE OF position, study_id ON study_items FOR EACH ROW EXECUTE FUNCTION allocation_cursors_study_items_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_assignments_insert_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_assignments_insert AFTER INSERT ON assignments FOR EACH ROW EXECUTE FUNCTION data_versions_assignments_insert_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_assignments_update_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = OLD.study_item_id
			AND OLD.study_item_id IS DISTINCT FROM NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_assignments_update AFTER UPDATE OF status, lease_expires_at, study_item_id, annotator_id ON assignments FOR EACH ROW EXECUTE FUNCTION data_versions_assignments_update_fn();
--> statement-breakpoint
CREATE FUNCTION data_versions_assignments_delete_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = OLD.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = data_versions.version + 1;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER data_versions_assignments_delete AFTER DELETE ON assignments FOR EACH ROW EXECUTE FUNCTION data_versions_assignments_delete_fn();
