package store_test

import (
	"context"
	"slices"
	"testing"

	"tend/app"
)

// TestSearchRankingRule pins the order of a search's matches: a whole
// typed word before a word it only starts, then a title hit before a
// description hit. Matches too few to fill the page are ranked from their
// text (app.SearchRelevance), more by BM25 a page at a time; both must put
// the same data in the same order, and the pages must follow each other.
func TestSearchRankingRule(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	_, svc, a := bootstrapped(t)
	// Unmatched tasks, so that BM25 finds the words rare enough to count.
	for range 20 {
		if _, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: "plain report", Description: "plain words here"}); err != nil {
			t.Fatal(err)
		}
	}
	texts := map[string][2]string{
		"title whole":        {"alpha report", "plain words here"},
		"title prefix":       {"alphabet report", "plain words here"},
		"description whole":  {"plain report", "alpha words here"},
		"description prefix": {"plain report", "alphabet words here"},
	}
	name := map[int64]string{}
	// Created in neither order, so that no tie-breaker passes for a rank.
	for _, n := range []string{"description whole", "title whole", "description prefix", "title prefix"} {
		tk, err := svc.CreateTask(ctx, a, "", app.TaskCreate{Title: texts[n][0], Description: texts[n][1]})
		if err != nil {
			t.Fatal(err)
		}
		name[tk.Ref] = n
	}
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"alpha", []string{"title whole", "description whole", "title prefix", "description prefix"}},
		{"words alpha", []string{"title whole", "description whole", "title prefix", "description prefix"}},
		{"alphab", []string{"title prefix", "description prefix"}},
	} {
		// One page of 50: every match fits, ranked from the text.
		few, err := svc.Tasks(ctx, a, app.TaskListQuery{Q: c.q, Limit: 50})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, tk := range few.Items {
			got = append(got, name[tk.Ref])
			if want := app.SearchRelevance(app.ParseSearch(c.q).Ranks, tk.Title, tk.Description); tk.Relevance == nil || *tk.Relevance != want {
				t.Errorf("q=%q, %s: relevance %v, want %v from its text", c.q, name[tk.Ref], tk.Relevance, want)
			}
		}
		if !slices.Equal(got, c.want) || few.Page.NextCursor != "" {
			t.Errorf("q=%q in one page: %q (next %q), want %q", c.q, got, few.Page.NextCursor, c.want)
		}
		// Pages of one: more matches than the page, ranked by BM25 and
		// resumed from each page's cursor.
		got = nil
		cursor := ""
		for range len(c.want) + 1 {
			page, err := svc.Tasks(ctx, a, app.TaskListQuery{Q: c.q, Limit: 1, Cursor: cursor})
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range page.Items {
				got = append(got, name[tk.Ref])
			}
			if cursor = page.Page.NextCursor; cursor == "" {
				break
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("q=%q a page of one at a time: %q, want %q", c.q, got, c.want)
		}
	}
}
