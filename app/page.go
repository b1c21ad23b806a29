package app

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math"
	"time"
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
	Seq    int64
	ID     string
	Values []any
	// At is the moment the walk began (see walkStart).
	At string
}

// cursorWire is the cursor's content before encoding: which listing, a
// fingerprint of its filters, and the position. The fingerprint lets a cursor
// from one query be refused by another instead of silently skipping rows.
//
// It is written as {"l":…,"f":…,"k":{"s":…,"i":…,"v":[…],"at":…}}, the
// key's empty members left out, member by member: the cursor is the app's
// own token, opaque to clients, and app's types carry no JSON names.
type cursorWire struct {
	Listing string
	Filter  string
	Key     cursorKey
}

func filterPrint(filter string) string {
	sum := sha256.Sum256([]byte(filter))
	return hex.EncodeToString(sum[:6])
}

// encodeCursor makes an opaque cursor for listing with the given filter.
func encodeCursor(listing, filter string, k cursorKey) string {
	var key []member
	if k.Seq != 0 {
		key = append(key, member{"s", k.Seq})
	}
	if k.ID != "" {
		key = append(key, member{"i", k.ID})
	}
	if len(k.Values) > 0 {
		key = append(key, member{"v", k.Values})
	}
	if k.At != "" {
		key = append(key, member{"at", k.At})
	}
	b := jsonObject(member{"l", listing}, member{"f", filterPrint(filter)}, member{"k", json.RawMessage(jsonObject(key...))})
	return base64.RawURLEncoding.EncodeToString(b)
}

// member is one member of a cursor's JSON object: its name, and its value
// (or, when read, where the value goes).
type member struct {
	name string
	v    any
}

// jsonObject is a JSON object of members, in the order given.
func jsonObject(members ...member) []byte {
	b := []byte{'{'}
	for i, m := range members {
		if i > 0 {
			b = append(b, ',')
		}
		v, _ := json.Marshal(m.v)
		b = append(append(b, `"`+m.name+`":`...), v...)
	}
	return append(b, '}')
}

// readCursor reads the content of a cursor, as encodeCursor writes it.
func readCursor(b []byte) (cursorWire, error) {
	var w cursorWire
	var key json.RawMessage
	if err := readObject(b, member{"l", &w.Listing}, member{"f", &w.Filter}, member{"k", &key}); err != nil || key == nil {
		return w, err
	}
	return w, readObject(key, member{"s", &w.Key.Seq}, member{"i", &w.Key.ID}, member{"v", &w.Key.Values}, member{"at", &w.Key.At})
}

// readObject reads the JSON object b into each member's destination; a
// member b leaves out leaves its destination as it is.
func readObject(b []byte, members ...member) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return err
	}
	for _, m := range members {
		if raw, ok := obj[m.name]; ok {
			if err := json.Unmarshal(raw, m.v); err != nil {
				return err
			}
		}
	}
	return nil
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
	w, err := readCursor(b)
	if err != nil {
		return cursorKey{}, bad
	}
	if w.Listing != listing || w.Filter != filterPrint(filter) {
		return cursorKey{}, bad
	}
	return w.Key, nil
}

// keysetAfter reads a sorted listing's cursor into the keyset position to
// resume after (nil for the first page). It must carry one value per sort
// field, each of its key's kind; a time must be one tend stores. A crafted
// cursor is refused like a foreign one, never passed on to the store.
func keysetAfter(cursor, listing, filter string, kinds []KeyKind) (*TaskCursor, error) {
	if cursor == "" {
		return nil, nil
	}
	k, err := decodeCursor(cursor, listing, filter)
	if err != nil {
		return nil, err
	}
	bad := Invalidf("query.cursor", "this cursor does not belong to this query; start again without one")
	if len(k.Values) != len(kinds) {
		return nil, bad
	}
	vals := make([]any, len(kinds))
	for i, kind := range kinds {
		v, err := cursorValue(k.Values[i], kind)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return nil, bad
		}
		vals[i] = v
	}
	return &TaskCursor{Values: vals, Seq: k.Seq}, nil
}

// cursorValue checks one decoded cursor value against its key's kind,
// returning it in the form the store compares, or nil when it is not of it.
func cursorValue(v any, kind KeyKind) (any, error) {
	switch kind {
	case KeyTime, KeyMaybeTime:
		s, ok := v.(string)
		if !ok || (kind == KeyMaybeTime && s == FarFuture) {
			return orNil(s, ok), nil
		}
		t, err := time.Parse(timeKeyLayout, s)
		if err != nil || t.Format(timeKeyLayout) != s {
			return nil, nil
		}
		if err := checkInstant("query.cursor", &t); err != nil {
			return nil, err
		}
		return s, nil
	case KeyFolded:
		s, ok := v.(string)
		return orNil(s, ok), nil
	case KeyInt, KeyMaybeInt:
		f, ok := v.(float64)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, nil
		}
		return int64(f), nil
	case KeyFloat:
		f, ok := v.(float64)
		return orNil(f, ok), nil
	}
	return nil, nil
}

func orNil[T any](v T, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// cutPage keeps the first limit of rows read one past it and makes the
// page they fill: when a row lay beyond, the cursor resumes after the last
// row kept, whose position key gives.
func cutPage[T any](rows []T, limit int, listing, filter string, key func(last T) cursorKey) ([]T, Page) {
	p := Page{Limit: limit}
	if len(rows) > limit {
		rows = rows[:limit]
		p.HasMore = true
		p.NextCursor = encodeCursor(listing, filter, key(rows[limit-1]))
	}
	return rows, p
}
