package wire

import (
	"net/url"
	"strconv"
	"time"
)

// Stamp formats an instant as RFC 3339 in UTC.
func Stamp(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// StampPtr is Stamp of *t, null for nil.
func StampPtr(t *time.Time) *string {
	if t == nil {
		return nil
	}
	s := Stamp(*t)
	return &s
}

// Stamps is Stamp of each instant.
func Stamps(ts []time.Time) []string {
	return Map(ts, Stamp)
}

// OrNull is s, null when empty: the wire writes an absent text as null.
func OrNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Deref is *s, "" for nil.
func Deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Itoa64 is n in decimal.
func Itoa64(n int64) string { return strconv.FormatInt(n, 10) }

// OriginOf is scheme://host[:port] of a URL, "" when it has none.
func OriginOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
