package dav_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// syncLimited sends a sync-collection of col from token with DAV:limit n,
// and answers the hrefs of its members other than the collection, whether
// it was cut (the collection as a 507 member) and the next token.
func (f *fix) syncLimited(col, token string, n int) (hrefs []string, cut bool, next string) {
	f.t.Helper()
	a := f.dav("REPORT", col, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token>`+token+
		`</d:sync-token><d:sync-level>1</d:sync-level><d:limit><d:nresults>`+fmt.Sprint(n)+`</d:nresults></d:limit><d:prop><d:getetag/></d:prop></d:sync-collection>`)
	f.want(a, http.StatusMultiStatus)
	for _, m := range regexp.MustCompile(`<d:href>([^<]*)</d:href>`).FindAllStringSubmatch(a.body, -1) {
		if m[1] != col {
			hrefs = append(hrefs, m[1])
		}
	}
	cut = strings.Contains(a.body, "<d:href>"+col+"</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status><d:error><d:number-of-matches-within-limits/>")
	return hrefs, cut, syncToken(f.t, a.body)
}

// TestDavSyncLimit: DAV:limit cuts a delta at N members, the collection
// answers 507 for the rest and the token goes on from there, so that
// rounds get every change exactly once, trashed tasks included; a first
// sync is cut the same way.
func TestDavSyncLimit(t *testing.T) {
	f := newFix(t)
	f.api(http.MethodPost, "/v1/projects", f.admin, map[string]any{"key": "home", "title": "Home"}, http.StatusCreated)
	col := "/dav/calendars/default.home/"
	put := func(i int) {
		f.want(f.dav(http.MethodPut, fmt.Sprintf("%st%02d.ics", col, i), f.user, f.admin, vtodo(fmt.Sprint("t", i), "SUMMARY:t")), http.StatusCreated)
	}
	for i := range 5 {
		put(i)
	}
	_, cut, tok := f.syncLimited(col, "", 10)
	if cut {
		t.Fatal("5 members cut at 10")
	}
	want := map[string]int{}
	for i := 5; i < 27; i++ {
		put(i)
		want[fmt.Sprintf("%st%02d.ics", col, i)] = 0
	}
	for i := range 3 {
		f.want(f.dav(http.MethodDelete, fmt.Sprintf("%st%02d.ics", col, i), f.user, f.admin, ""), http.StatusNoContent)
		want[fmt.Sprintf("%st%02d.ics", col, i)] = 0
	}
	check := func(from string, rounds []int, want map[string]int) {
		t.Helper()
		tok := from
		for i, n := range rounds {
			hrefs, cut, next := f.syncLimited(col, tok, 10)
			if len(hrefs) != n || cut != (i < len(rounds)-1) || next == tok {
				t.Fatalf("round %d: %d members (want %d), cut %v, token %s after %s", i, len(hrefs), n, cut, next, tok)
			}
			for _, h := range hrefs {
				want[h]++
			}
			tok = next
		}
		for h, n := range want {
			if n != 1 {
				t.Errorf("%s came %d times", h, n)
			}
		}
	}
	check(tok, []int{10, 10, 5}, want)

	// A first sync that is cut goes on as a delta: the three trashed
	// tasks, changed after the first part, come as 404 members.
	first := map[string]int{}
	for i := range 27 {
		first[fmt.Sprintf("%st%02d.ics", col, i)] = 0
	}
	check("", []int{10, 10, 7}, first)
	f.want(f.dav("REPORT", col, f.user, f.admin, `<d:sync-collection xmlns:d="DAV:"><d:sync-token/><d:limit><d:nresults>none</d:nresults></d:limit></d:sync-collection>`),
		http.StatusBadRequest, "nresults")
}
