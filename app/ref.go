package app

import (
	"strings"

	"github.com/google/uuid"
)

// CheckRef refuses what cannot name an item, so that a mistyped ref is
// told apart from one that names nothing the caller may see: a ref is a
// positive integer (42, "42" or "#42"), an id is a UUID. loc names the
// field it was sent in.
func CheckRef(loc, s string) error {
	s = strings.TrimPrefix(strings.TrimSpace(s), "#")
	if s == "" {
		return Invalidf(loc, "%s is required: a ref (42 or \"#42\") or an id", lastLoc(loc))
	}
	if !isRef(s) && !isID(s) {
		return Invalidf(loc, "%q is neither a ref (42 or \"#42\") nor an id (a UUID)", s)
	}
	return nil
}

// isRef reports whether s is a positive integer ref.
func isRef(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return strings.TrimLeft(s, "0") != ""
}

// isID reports whether s is an id as tend writes them: a UUID with its dashes.
func isID(s string) bool {
	return len(s) == 36 && uuid.Validate(s) == nil
}

// lastLoc is the field a location ends in ("target" of "body.links.0.target").
func lastLoc(loc string) string {
	return loc[strings.LastIndex(loc, ".")+1:]
}
