package pages

import (
	"html/template"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// accessData is the Account page's Devices section: the person's sessions,
// a device link just made, and their Tailscale login.
type accessData struct {
	Sessions []deviceRow
	// DeviceLink is a sign-in link just made for another device, with its
	// QR code: shown on this one answer and never again.
	DeviceLink *deviceLinkView
	// Tailscale is the login linked to the account; Claimable the one
	// this request carries from a trusted tailscale serve, offered to link
	// while the account has none.
	Tailscale, Claimable string
}

// deviceRow is a session as the Devices table shows it.
type deviceRow struct {
	app.DeviceSession
	How string // how it signed in, in words
}

// viaWords says how a session began (app.SessionStart.Via) in words.
var viaWords = map[string]string{"link": "a sign-in link", "device_link": "a link from another device",
	"invite": "an invite", "passkey": "a passkey", "tailscale": "Tailscale"}

type deviceLinkView struct {
	URL       string
	QR        template.HTML
	ExpiresAt string
}

// devices fills the Devices section for a; link is a device link just made.
func (s *Server) devices(r *http.Request, a app.Actor, link *deviceLinkView) (accessData, error) {
	ss, err := s.app.Sessions(r.Context(), a, "")
	d := accessData{DeviceLink: link, Tailscale: a.User.TailscaleLogin}
	for _, x := range ss {
		d.Sessions = append(d.Sessions, deviceRow{DeviceSession: x, How: viaWords[x.Via]})
	}
	if d.Tailscale == "" && a.SessionID != "" {
		d.Claimable = wire.TailscaleLoginOf(r)
	}
	if app.CodeOf(err) == app.CodeCredentialNarrowed {
		// A narrowed token reads the page; its person's devices are not its to list.
		return d, nil
	}
	return d, err
}

// pageSessionRevoke revokes one of the person's own sessions.
func (s *Server) pageSessionRevoke(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	if err := s.app.RevokeSession(r.Context(), a, "", wire.Param(r, "session")); err != nil {
		return err
	}
	return seeOther(w, r, "/account#devices")
}

// pageSignOutOthers signs the person out everywhere but this browser.
func (s *Server) pageSignOutOthers(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	if _, err := s.app.SignOutOthers(r.Context(), a, a.User.Username); err != nil {
		return err
	}
	return seeOther(w, r, "/account#devices")
}

// pageDeviceLink makes a sign-in link for another device of the person's
// own and shows it once, as the link and as a QR code to scan.
func (s *Server) pageDeviceLink(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	l, err := s.app.CreateDeviceLink(r.Context(), a)
	if err != nil {
		return err
	}
	u := wire.SignInURL(wire.BaseURL(r, s.app.PublicURL()), l.Secret)
	code, err := qrSVG(u, "QR code of the sign-in link")
	if err != nil {
		return err
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	return s.renderAccount(w, r, a, accountData{DeviceLink: &deviceLinkView{URL: u, QR: code,
		ExpiresAt: l.ExpiresAt.UTC().Format("15:04 UTC")}})
}

// pageTailscaleClaim links the Tailscale login this request carries to the
// person's account, which has none.
func (s *Server) pageTailscaleClaim(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	if _, err := s.app.ClaimTailscale(r.Context(), a, wire.TailscaleLoginOf(r)); err != nil {
		return err
	}
	return seeOther(w, r, "/account#devices")
}
