CREATE TABLE `allocation_cursors` (
	`study_id` integer PRIMARY KEY NOT NULL,
	`open_from` integer NOT NULL,
	FOREIGN KEY (`study_id`) REFERENCES `studies`(`id`) ON UPDATE no action ON DELETE cascade
);--> statement-breakpoint
-- The cursor's invariant (db/schema.ts allocationCursors): items before it have k verified live places taken.
-- Every write that could free such a place moves it back to the item, by any process; allocation moves it on.
CREATE TRIGGER `allocation_cursors_assignments_update` AFTER UPDATE OF status, study_item_id, annotator_id ON `assignments`
WHEN NEW.status IN ('released', 'skipped') OR NEW.study_item_id IS NOT OLD.study_item_id
	OR NEW.annotator_id IS NOT OLD.annotator_id BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_assignments_delete` AFTER DELETE ON `assignments` BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_labels_update` AFTER UPDATE OF status, study_item_id, annotator_id ON `labels`
WHEN (NEW.status = 'pending' AND OLD.status IS NOT 'pending') OR NEW.study_item_id IS NOT OLD.study_item_id
	OR NEW.annotator_id IS NOT OLD.annotator_id BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_labels_delete` AFTER DELETE ON `labels` BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, (SELECT position FROM study_items WHERE id = OLD.study_item_id))
		WHERE study_id = (SELECT study_id FROM study_items WHERE id = OLD.study_item_id);
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_annotators_update` AFTER UPDATE OF role, channel ON `annotators`
WHEN NEW.role IS NOT OLD.role OR NEW.channel IS NOT OLD.channel BEGIN
	DELETE FROM allocation_cursors;
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_annotators_delete` AFTER DELETE ON `annotators` BEGIN
	DELETE FROM allocation_cursors;
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_studies_update` AFTER UPDATE OF labels_per_item ON `studies`
WHEN NEW.labels_per_item > OLD.labels_per_item BEGIN
	DELETE FROM allocation_cursors WHERE study_id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_study_items_insert` AFTER INSERT ON `study_items` BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, NEW.position) WHERE study_id = NEW.study_id;
END;
--> statement-breakpoint
CREATE TRIGGER `allocation_cursors_study_items_update` AFTER UPDATE OF position, study_id ON `study_items` BEGIN
	UPDATE allocation_cursors SET open_from = min(open_from, NEW.position) WHERE study_id = NEW.study_id;
END;
--> statement-breakpoint
-- A study's lease mark ('leases:<id>' in data_versions): moved by every write that could change who holds an item
-- or when a lease ends, so the dashboard keeps its lease parts (progress, names) until it moves or a lease ends.
CREATE TRIGGER `data_versions_assignments_insert` AFTER INSERT ON `assignments` BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_assignments_update` AFTER UPDATE OF status, lease_expires_at, study_item_id, annotator_id
ON `assignments` BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = version + 1;
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = OLD.study_item_id
			AND OLD.study_item_id IS NOT NEW.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `data_versions_assignments_delete` AFTER DELETE ON `assignments` BEGIN
	INSERT INTO data_versions (scope, version) SELECT 'leases:' || study_id, 1 FROM study_items WHERE id = OLD.study_item_id
		ON CONFLICT (scope) DO UPDATE SET version = version + 1;
END;
