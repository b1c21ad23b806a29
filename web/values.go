package web

import (
	"strconv"
	"time"
)

// stamp formats an instant as RFC 3339 in UTC.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func stampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := stamp(*t)
	return &s
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func itoa64(n int64) string { return strconv.FormatInt(n, 10) }
