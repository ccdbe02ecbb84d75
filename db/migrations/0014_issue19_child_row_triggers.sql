-- Turns, snippets and evaluation scores are only ever inserted together with their run or
-- evaluation, in one transaction (bundle-store.server.ts), and that parent row's own trigger already
-- moves the 'global' mark. A trigger per child row made a bundle import ~65% slower (bench:db), so
-- inserts of these three tables no longer fire one; their updates and deletes still do.
DROP TRIGGER IF EXISTS `data_versions_turns_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `data_versions_snippets_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `data_versions_evaluation_scores_insert`;
