package web

import (
	"net/http"
	"net/url"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// deviceStartIn is the body of POST /v1/auth/device.
type deviceStartIn struct {
	ClientName string `json:"client_name,omitempty"`
}

// deviceStartJSON is RFC 8628's device authorization response: the one
// moment both codes exist in readable form.
type deviceStartJSON struct {
	DeviceCode              string `json:"device_code"`
	UserCode                string `json:"user_code"`
	VerificationURI         string `json:"verification_uri"`
	VerificationURIComplete string `json:"verification_uri_complete"`
	ExpiresIn               int    `json:"expires_in"`
	Interval                int    `json:"interval"`
}

// deviceTokenIn is the body of POST /v1/auth/device/token.
type deviceTokenIn struct {
	DeviceCode string `json:"device_code"`
}

// public registers a route of the JSON API that reads no credential.
func (s *Server) public(method, path string, h handlerFunc) {
	s.router.Handler(method, path, apiHandler(func(w http.ResponseWriter, r *http.Request) {
		if err := h(w, r, app.Actor{}); err != nil {
			wire.WriteProblem(s.log, w, r, err)
		}
	}))
}

func (s *Server) handleDeviceStart(w http.ResponseWriter, r *http.Request, _ app.Actor, in deviceStartIn) error {
	return reply(w, http.StatusOK, func(d app.DeviceAuthorization) deviceStartJSON {
		page := strings.TrimRight(s.baseURL(r), "/") + "/device"
		return deviceStartJSON{DeviceCode: d.DeviceCode, UserCode: d.UserCode, VerificationURI: page,
			VerificationURIComplete: page + "?user_code=" + url.QueryEscape(d.UserCode), ExpiresIn: d.ExpiresIn, Interval: d.Interval}
	})(s.app.StartDevice(r.Context(), in.ClientName, clientAddr(r)))
}

// clientAddr is the address a request came from, without its port: behind
// a reverse proxy, the proxy's.
func clientAddr(r *http.Request) string { return wire.ClientAddr(r) }

func (s *Server) handleDeviceToken(w http.ResponseWriter, r *http.Request, _ app.Actor, in deviceTokenIn) error {
	if in.DeviceCode == "" {
		return app.Invalidf("body.device_code", "device_code is required")
	}
	return reply(w, http.StatusOK, func(t app.IssuedToken) issuedTokenJSON {
		return issuedTokenJSON{tokenJSON: newTokenJSON(t.Token), Token: t.Secret}
	})(s.app.DeviceToken(r.Context(), in.DeviceCode))
}
