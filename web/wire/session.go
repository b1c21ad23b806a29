package wire

import (
	"net"
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

// SetSession gives the browser the cookie of the session ss: every way
// into a session sets it here.
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
	return BaseURL(r, publicURL) + "/v1/calendars/" + c.Prefix + "/" + c.Secret + ".ics"
}

// BaseURL is where clients reach the instance: the public URL when one is
// set, else the scheme and host the request came to.
func BaseURL(r *http.Request, publicURL string) string {
	if base := strings.TrimRight(publicURL, "/"); base != "" {
		return base
	}
	scheme := "http"
	if r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https") {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// ClientAddr is the address a request came from, without its port: behind
// a reverse proxy, the proxy's.
func ClientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// SessionClient is the browser a request came from, as a session records it.
func SessionClient(r *http.Request) app.SessionClient {
	return app.SessionClient{UserAgent: r.UserAgent(), Address: ClientAddr(r)}
}

// SignInURL is the link a person opens to sign in.
func SignInURL(base, secret string) string {
	return strings.TrimRight(base, "/") + "/signin?link=" + secret
}
