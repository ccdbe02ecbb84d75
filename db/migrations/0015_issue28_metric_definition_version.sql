-- Every stored metric value records the definition version that computed it (issue 28). Rows
-- stored before this column were computed by the first definitions, so they take 1: a metric
-- whose definition has since moved on (RL and TLE are at 2) reads them as stale and recomputes.
ALTER TABLE `metric_values` ADD `definition_version` integer DEFAULT 1 NOT NULL;
