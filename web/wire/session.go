package wire

import (
	"net/http"
	"strings"

	"tend/app"
)

// SessionCookie names the browser session's cookie (CONTRACT.md).
const SessionCookie = "tend_session"

// SecureCookies reports whether the cookies set in answer to r must be
// Secure: r came over TLS, or the instance's public URL is https.
func SecureCookies(r *http.Request, publicURL string) bool {
	return r.TLS != nil || strings.HasPrefix(strings.ToLower(publicURL), "https://")
}

// SetSession gives the browser the cookie of a session just started.
func SetSession(w http.ResponseWriter, r *http.Request, publicURL string, ss app.StartedSession) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: ss.Secret, Path: "/", Expires: ss.ExpiresAt,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: SecureCookies(r, publicURL)})
}

// ClearSession tells the browser to forget its session cookie.
func ClearSession(w http.ResponseWriter, r *http.Request, publicURL string) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: SecureCookies(r, publicURL)})
}

// FeedURL is where the calendar feed c is fetched: under the instance's
// public URL, else under the origin r came to.
func FeedURL(r *http.Request, publicURL string, c app.IssuedCalendar) string {
	base := strings.TrimRight(publicURL, "/")
	if base == "" {
		scheme := "http"
		if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
			scheme = "https"
		}
		base = scheme + "://" + r.Host
	}
	return base + "/v1/calendars/" + c.Prefix + "/" + c.Secret + ".ics"
}
