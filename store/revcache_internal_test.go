package store

import "testing"

// TestPutSharedDropsOlderRevisions: in a cache whose keys share one
// revision, a value read at a newer revision drops every entry read at an
// older one, and only those. The values are slices, as credentials hold,
// which cannot be compared.
func TestPutSharedDropsOlderRevisions(t *testing.T) {
	t.Parallel()
	var c revCache[[]int]
	c.putShared("a", 1, []int{10})
	c.putShared("b", 1, []int{20})
	if v, ok := c.get("b", 1); !ok || v[0] != 20 {
		t.Fatalf("b at 1: %v, %v", v, ok)
	}
	c.putShared("a", 2, []int{11})
	c.putShared("c", 2, []int{30})
	if _, ok := c.get("b", 1); ok {
		t.Error("b, read at revision 1, survived revision 2")
	}
	n := 0
	c.m.Range(func(any, any) bool { n++; return true })
	if n != 2 {
		t.Errorf("%d entries after revision 2, want a and c", n)
	}
	for key, want := range map[string]int{"a": 11, "c": 30} {
		if v, ok := c.get(key, 2); !ok || v[0] != want {
			t.Errorf("%s at 2: %v, %v; want %d", key, v, ok, want)
		}
	}
}

// TestReadsOnly: only a SELECT keeps a transaction's remembered revisions
// (revsRead); a write, one that returns rows included, and a WITH, which
// may lead to one, forget them.
func TestReadsOnly(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1":                      true,
		"\n\t\tselect vocab_rev FROM w": true,
		"UPDATE workspaces SET next_ref = next_ref + 1 RETURNING next_ref": false,
		"INSERT INTO t (a) SELECT 1 RETURNING a":                           false,
		"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x":               false,
		"DELETE FROM t": false,
		"SELEC":         false,
	} {
		if got := readsOnly(q); got != want {
			t.Errorf("readsOnly(%q) = %v, want %v", q, got, want)
		}
	}
}
