-- As SQLite's 0014: turns, snippets and evaluation scores are only inserted with their run or
-- evaluation, whose own trigger moves the 'global' mark, so inserting them fires none. On
-- PostgreSQL a trigger per child row also updated one data_versions row tens of thousands of
-- times in one transaction, each update walking the row's growing chain of versions: a bundle
-- import of 135 runs took 18–38 s instead of about one. Their updates and deletes still fire.
DROP TRIGGER IF EXISTS data_versions_turns_insert ON turns;
--> statement-breakpoint
DROP FUNCTION IF EXISTS data_versions_turns_insert_fn();
--> statement-breakpoint
DROP TRIGGER IF EXISTS data_versions_snippets_insert ON snippets;
--> statement-breakpoint
DROP FUNCTION IF EXISTS data_versions_snippets_insert_fn();
--> statement-breakpoint
DROP TRIGGER IF EXISTS data_versions_evaluation_scores_insert ON evaluation_scores;
--> statement-breakpoint
DROP FUNCTION IF EXISTS data_versions_evaluation_scores_insert_fn();
