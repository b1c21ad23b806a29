package app

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// changed spells out an event's changes object as rows, by field name. A
// {"from": x, "to": y} pair gives before x and after y; any other value is
// what the event recorded for that field (the value set on a create, the
// name of what was removed, a count of what went along) and is the after
// value, with no before.
func changed(changes map[string]any) []Change {
	keys := slices.Sorted(maps.Keys(changes))
	out := make([]Change, 0, len(keys))
	for _, k := range keys {
		v := changes[k]
		if pair, ok := v.(map[string]any); ok && len(pair) == 2 && hasKey(pair, "from") && hasKey(pair, "to") {
			c := Change{Field: k, Before: changeValue(pair["from"]), After: changeValue(pair["to"])}
			c.Said = k + ": " + phrase(c.Before) + " → " + phrase(c.After)
			out = append(out, c)
			continue
		}
		c := Change{Field: k, After: changeValue(v)}
		c.Said = k + ": " + phrase(c.After)
		out = append(out, c)
	}
	return out
}

func hasKey(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// changeValue renders a value read back from an event's JSON as a string:
// text as it is, whole numbers without a decimal point, lists joined by
// commas, objects as compact JSON; null stays null.
func changeValue(v any) *string {
	var s string
	switch x := v.(type) {
	case nil:
		return nil
	case string:
		s = x
	case bool:
		s = strconv.FormatBool(x)
	case float64:
		s = strconv.FormatFloat(x, 'f', -1, 64)
	case []any:
		parts := make([]string, 0, len(x))
		for _, it := range x {
			if p := changeValue(it); p != nil {
				parts = append(parts, *p)
			}
		}
		s = strings.Join(parts, ", ")
	default:
		b, _ := json.Marshal(x)
		s = string(b)
	}
	return &s
}

// phrase is a value as a person reads it in a sentence.
func phrase(v *string) string {
	if v == nil || *v == "" {
		return "none"
	}
	return *v
}
