package store

import (
	"maps"
	"slices"
	"testing"

	"tend/app"
)

// Every field the app lets a listing be ordered by has its column here,
// one the listing's query reads, and no column is kept for a field the app
// has dropped.
func TestSortColumnsMatchSortKeys(t *testing.T) {
	check := func(t *testing.T, fields []string, cols map[string]sortColumn, read []string) {
		if got := slices.Sorted(maps.Keys(cols)); !slices.Equal(got, slices.Sorted(slices.Values(fields))) {
			t.Errorf("columns for %v, sort keys %v", got, fields)
		}
		for f, c := range cols {
			if !slices.Contains(read, c.outer) {
				t.Errorf("%s sorts on %q, which the listing does not read", f, c.outer)
			}
		}
	}
	t.Run("tasks", func(t *testing.T) {
		check(t, app.TaskOrderFields, taskSortColumns, taskReader.names)
	})
	t.Run("documents", func(t *testing.T) {
		check(t, app.DocumentOrderFields, documentSortColumns, documentReader.names)
		for f, c := range documentSortColumns {
			if c.inner != "" {
				t.Errorf("%s has an inner column, but the document query has no inner select", f)
			}
		}
	})
}
