-- Issue 25 §2: a create writes fewer pages to the log. Every commit that
-- adds a task writes a new segment of tasks_fts, and FTS5 merges a level's
-- segments once it holds `automerge` of them (4 by default). Merging at 2
-- keeps fewer, larger segments: a create's commit writes 2.0 pages of
-- tasks_fts_data instead of 3.2 for no more CPU, and a search reads no
-- more segments than before (BENCHMARKS.md, "Creates: FTS5 merges and
-- group commit"). The setting is kept in tasks_fts_config.
INSERT INTO tasks_fts (tasks_fts, rank) VALUES ('automerge', 2);
