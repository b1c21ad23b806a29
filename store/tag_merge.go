package store

// A tag merged into another (Tx.MergeTagInto) is marked deleted, so every
// read by name or id leaves it out, and merged_into names the tag its
// applications count as until the worker has moved them (PurgeTag). The
// reads of items' tags go through these fragments, which the partial index
// tags_merging makes free when no merge is pending.

// tagOrMerged is the SQL for the ids whose applications count as the tag
// with id tag (an SQL expression): its own and those of the tags merged
// into it.
func tagOrMerged(tag string) string {
	return "(SELECT " + tag + " UNION ALL SELECT id FROM tags WHERE merged_into = " + tag + ")"
}

// tagsOrMerged is tagOrMerged for the ids of a JSON array (an SQL
// expression).
func tagsOrMerged(ids string) string {
	return "(SELECT value FROM json_each(" + ids + ") UNION ALL SELECT id FROM tags WHERE merged_into IN (SELECT value FROM json_each(" + ids + ")))"
}

// liveTag is the condition that the tag g (an alias of tags) counts for
// readers: not deleted, or merged into a tag that is not.
func liveTag(g string) string {
	return "(" + g + ".deleted_at IS NULL OR EXISTS (SELECT 1 FROM tags m WHERE m.id = " + g + ".merged_into AND m.deleted_at IS NULL))"
}

// itemTagNames is the SQL for the names of an item's tags joined by
// char(31): table and column are its join table and item column, item the
// SQL of the item's id. An application of a merged tag reads as the tag it
// is merged into, once on an item that carries both; ordered sorts the
// names as tag pages are.
func itemTagNames(table, column, item string, ordered bool) string {
	order := ""
	if ordered {
		order = " ORDER BY lower(n)"
	}
	return `(SELECT group_concat(n, char(31)) FROM (SELECT ifnull(m.name, g.name) AS n FROM ` + table + ` x
		JOIN tags g ON g.id = x.tag_id LEFT JOIN tags m ON m.id = g.merged_into AND m.deleted_at IS NULL
		WHERE x.` + column + ` = ` + item + ` AND (g.deleted_at IS NULL OR (m.id IS NOT NULL
			AND NOT EXISTS (SELECT 1 FROM ` + table + ` y WHERE y.` + column + ` = x.` + column + ` AND y.tag_id = m.id)))` + order + `))`
}
