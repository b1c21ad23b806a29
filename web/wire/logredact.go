package wire

import (
	"net/url"
	"regexp"
	"strings"
)

// What is logged of a request's URL passes through RedactURL. Every tend
// secret (app/token.go) carries a tail of at least 32 random characters
// drawn from letters and digits, so any run of 24 or more letters
// and digits is taken for a secret and hidden, wherever it stands: mid
// segment, in a query key or value, any number of times. Public prefixes
// ("tend_" and ten characters) are shorter and stay, so a leaked secret can
// still be traced to its record. A "%" counts as part of a run, so a
// secret encoded more often than RedactURL decodes is hidden too. Beside
// that shape, the values of query
// parameters that carry secrets (the sign-in link's among them), the
// secret of a calendar feed's path and an invite's in a join page's path
// are hidden whatever they look like.
// redacted stands where a secret was.
const redacted = "…"

var (
	secretShape = regexp.MustCompile(`[A-Za-z0-9%]{24,}`)
	feedPath    = regexp.MustCompile(`^(/v1/calendars/[^/]+/)[^/]+\.ics$`)
	joinPath    = regexp.MustCompile(`^/join/[^/]+`)
)

// secretKeys are the query parameters whose values are secrets.
var secretKeys = map[string]bool{"token": true, "access_token": true, "api_key": true, "apikey": true,
	"secret": true, "link": true, "session": true, "key": true, "password": true, "user_code": true}

// maxUnescape bounds how often a part is decoded: a secret encoded twice
// over is still found, and a crafted input cannot make the log line costly.
const maxUnescape = 4

// RedactURL is what a log line may hold of a request's path and raw query:
// both decoded (repeatedly, so that no encoding hides a secret's shape),
// with every secret replaced by "…".
func RedactURL(path, rawQuery string) string {
	p := unescapeAll(path, url.PathUnescape)
	if m := feedPath.FindStringSubmatch(p); m != nil {
		p = m[1] + redacted + ".ics"
	}
	// An invite's secret, mistyped or cut short too: what follows /join/
	// is taken for one whatever it looks like.
	p = joinPath.ReplaceAllLiteralString(p, "/join/"+redacted)
	p = secretShape.ReplaceAllString(p, redacted)
	if rawQuery == "" {
		return p
	}
	parts := strings.Split(rawQuery, "&")
	for i, part := range parts {
		k, v, hasValue := strings.Cut(part, "=")
		k = unescapeAll(k, url.QueryUnescape)
		v = unescapeAll(v, url.QueryUnescape)
		if secretKeys[strings.ToLower(strings.TrimSpace(k))] && v != "" {
			v = redacted
		}
		parts[i] = secretShape.ReplaceAllString(k, redacted)
		if hasValue {
			parts[i] += "=" + secretShape.ReplaceAllString(v, redacted)
		}
	}
	return p + "?" + strings.Join(parts, "&")
}

// unescapeAll decodes s until it no longer changes or no longer decodes.
func unescapeAll(s string, unescape func(string) (string, error)) string {
	for range maxUnescape {
		if !strings.Contains(s, "%") && !strings.Contains(s, "+") {
			return s
		}
		d, err := unescape(s)
		if err != nil || d == s {
			return s
		}
		s = d
	}
	return s
}
