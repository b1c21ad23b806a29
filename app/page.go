package app

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
)

// Page is the paging part of every listing envelope.
type Page struct {
	HasMore    bool
	HeldBack   *int
	Limit      int
	NextCursor string
	Total      *int
	Unread     []string
}

// pageLimit applies the listing limit rule: at least 1, capped at
// max_page_size, default_page_size when not given.
func (s *Service) pageLimit(n int) (int, error) {
	switch {
	case n == 0:
		return s.limits.DefaultPageSize, nil
	case n < 0:
		return 0, Invalidf("query.limit", "limit is at least 1")
	case n > s.limits.MaxPageSize:
		return s.limits.MaxPageSize, nil
	}
	return n, nil
}

// cursorKey is the keyset position a cursor resumes after.
type cursorKey struct {
	Seq    int64  `json:"s,omitempty"`
	ID     string `json:"i,omitempty"`
	Values []any  `json:"v,omitempty"`
}

// cursorWire is the cursor's content before encoding: which listing, a
// fingerprint of its filters, and the position. The fingerprint lets a cursor
// from one query be refused by another instead of silently skipping rows.
type cursorWire struct {
	Listing string    `json:"l"`
	Filter  string    `json:"f"`
	Key     cursorKey `json:"k"`
}

func filterPrint(filter string) string {
	sum := sha256.Sum256([]byte(filter))
	return hex.EncodeToString(sum[:6])
}

// encodeCursor makes an opaque cursor for listing with the given filter.
func encodeCursor(listing, filter string, k cursorKey) string {
	b, _ := json.Marshal(cursorWire{Listing: listing, Filter: filterPrint(filter), Key: k})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor made by encodeCursor for the same listing and
// filter. An empty cursor is the first page.
func decodeCursor(s, listing, filter string) (cursorKey, error) {
	if s == "" {
		return cursorKey{}, nil
	}
	bad := Invalidf("query.cursor", "this cursor does not belong to this query; start again without one")
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return cursorKey{}, bad
	}
	var w cursorWire
	if err := json.Unmarshal(b, &w); err != nil {
		return cursorKey{}, bad
	}
	if w.Listing != listing || w.Filter != filterPrint(filter) {
		return cursorKey{}, bad
	}
	return w.Key, nil
}

// keysetAfter reads a sorted listing's cursor into the keyset position to
// resume after (nil for the first page); it must carry one value per sort
// field.
func keysetAfter(cursor, listing, filter string, fields int) (*TaskCursor, error) {
	if cursor == "" {
		return nil, nil
	}
	k, err := decodeCursor(cursor, listing, filter)
	if err != nil {
		return nil, err
	}
	if len(k.Values) != fields {
		return nil, Invalidf("query.cursor", "this cursor does not belong to this query; start again without one")
	}
	return &TaskCursor{Values: k.Values, Seq: k.Seq}, nil
}
