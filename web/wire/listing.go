package wire

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"

	"tend/app"
)

// Page is the paging part of a listing: the envelope every listing carries.
type Page struct {
	HasMore    bool     `json:"has_more"`
	HeldBack   *int     `json:"held_back"`
	Limit      *int     `json:"limit"`
	NextCursor *string  `json:"next_cursor"`
	Total      *int     `json:"total"`
	Unread     []string `json:"unread"`
}

// List is a listing: its items and its page.
type List struct {
	Items any  `json:"items"`
	Page  Page `json:"page"`
}

// NewPage is p as the wire shows it.
func NewPage(p app.Page) Page {
	out := Page{HasMore: p.HasMore, HeldBack: p.HeldBack, Total: p.Total, Unread: p.Unread}
	if p.Limit > 0 {
		out.Limit = &p.Limit
	}
	if p.NextCursor != "" {
		out.NextCursor = &p.NextCursor
	}
	return out
}

// Whole is the page of an unpaged listing: everything, nothing more.
func Whole() Page { return Page{} }

// ShapeItems applies format and fields to a listing's items: "ids" gives
// the ids, "compact" one aligned line per item, fields keeps only the named
// fields. The two cannot be combined.
func ShapeItems[T any](items []T, format, fields string, id func(T) string, line func(T) []string) (any, error) {
	if format != "" && fields != "" {
		return nil, app.Invalidf("query.fields", "fields cannot be combined with format")
	}
	switch format {
	case "", "full":
	case "ids":
		out := make([]string, len(items))
		for i, it := range items {
			out[i] = id(it)
		}
		return out, nil
	case "compact":
		rows := make([][]string, len(items))
		for i, it := range items {
			rows[i] = line(it)
		}
		return AlignRows(rows), nil
	default:
		return nil, app.Invalidf("query.format", "format is full, compact or ids")
	}
	if fields == "" {
		return items, nil
	}
	return pickFields(items, strings.Split(fields, ","))
}

// pickFields keeps only the named fields of each item, refusing names the
// item does not have.
func pickFields[T any](items []T, names []string) (any, error) {
	out := make([]map[string]json.RawMessage, len(items))
	for i, it := range items {
		b, err := json.Marshal(it)
		if err != nil {
			return nil, err
		}
		var all map[string]json.RawMessage
		if err := json.Unmarshal(b, &all); err != nil {
			return nil, err
		}
		out[i] = map[string]json.RawMessage{}
		for _, n := range names {
			n = strings.TrimSpace(n)
			v, ok := all[n]
			if !ok {
				return nil, app.Invalidf("query.fields", "unknown field %q; fields are %s", n, strings.Join(slices.Sorted(maps.Keys(all)), ", "))
			}
			out[i][n] = v
		}
	}
	return out, nil
}

// AlignRows pads each column of rows to its widest cell, two spaces apart.
func AlignRows(rows [][]string) []string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len([]rune(c)))
		}
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		var b strings.Builder
		for j, c := range r {
			b.WriteString(c)
			if j < len(r)-1 {
				b.WriteString(strings.Repeat(" ", widths[j]-len([]rune(c))+2))
			}
		}
		out[i] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// FirstOf is the one item of a shaped single-item listing.
func FirstOf(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Slice && rv.Len() > 0 {
		return rv.Index(0).Interface()
	}
	return v
}

// TaskList is the task listing: a page, or groups when grouped, and
// the links among the page's items when asked for.
type TaskList struct {
	Items  any         `json:"items,omitempty"`
	Page   *Page       `json:"page,omitempty"`
	Groups []TaskGroup `json:"groups,omitempty"`
	Links  *[]PageLink `json:"links,omitempty"` // a pointer: asked for and empty is [], not absent
}

// TaskGroup is one group of a grouped task listing.
type TaskGroup struct {
	Key   string `json:"key"`
	Items any    `json:"items"`
	Page  Page   `json:"page"`
}

// Map is conv of each of xs. It is never nil: an empty listing is [] on
// the wire, never null.
func Map[T, J any](xs []T, conv func(T) J) []J {
	out := make([]J, len(xs))
	for i, x := range xs {
		out[i] = conv(x)
	}
	return out
}
