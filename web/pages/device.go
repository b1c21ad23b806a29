package pages

import (
	"net/http"
	"net/url"

	"tend/app"
)

// deviceData is the page a terminal's browser sign-in (tend login
// --browser) sends its person to: a box for the user code, the request it
// names with Approve and Deny, or what was decided.
type deviceData struct {
	Code    string
	Client  string
	Me      app.Me
	Decided string // "approved" or "denied", after the form
}

// pageDevice shows the request the user code in the query names; a code
// that names none (mistyped, decided, expired) is the not-found page.
func (s *Server) pageDevice(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := r.URL.Query()
	d := deviceData{Code: q.Get("user_code"), Decided: q.Get("decided")}
	if d.Decided != "approved" && d.Decided != "denied" {
		d.Decided = ""
	}
	if d.Code != "" && d.Decided == "" {
		req, err := s.app.DeviceRequest(r.Context(), a, d.Code)
		if err != nil {
			return err
		}
		d.Client = req.Client
		if d.Me, err = s.app.Me(r.Context(), a); err != nil {
			return err
		}
	}
	return s.render(w, http.StatusOK, "device", s.view(r, a, "Sign in a terminal", "", d))
}

// pageDeviceDecide approves (for the workspace chosen) or denies it.
func (s *Server) pageDeviceDecide(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	approve := f.str("decision") == "approve"
	if err := s.app.DecideDevice(r.Context(), a, f.str("user_code"), f.str("workspace"), approve); err != nil {
		return err
	}
	decided := "denied"
	if approve {
		decided = "approved"
	}
	return seeOther(w, r, "/device?"+url.Values{"decided": {decided}}.Encode())
}
