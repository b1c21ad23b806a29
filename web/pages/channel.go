package pages

import (
	"context"
	"net/http"
	"strings"

	"tend/app"
	"tend/web/wire"
)

// channelService is the part of app.Service the Account page's
// Notifications section calls.
type channelService interface {
	Channels(ctx context.Context, a app.Actor) ([]app.Channel, error)
	CreateChannel(ctx context.Context, a app.Actor, in app.ChannelCreate) (app.Channel, bool, error)
	DeleteChannel(ctx context.Context, a app.Actor, id string) error
	TestChannel(ctx context.Context, a app.Actor, id string) (app.Notification, error)
	Notifications(ctx context.Context, a app.Actor, limit int) ([]app.Notification, error)
}

// notifyData is the Account page's Notifications section: the person's
// channels and the notifications that failed lately, with their reasons.
type notifyData struct {
	Channels []app.Channel
	Failed   []app.Notification
	// Digest is the person's digest time ("07:30"), empty when off.
	Digest string
}

// recentNotifications is how many of the latest notifications the page
// looks through for failures.
const recentNotifications = 50

// notifications reads the section; nil for an agent, which has none.
func (s *Server) notifications(r *http.Request, a app.Actor) (*notifyData, error) {
	if a.User.IsServiceAccount {
		return nil, nil
	}
	cs, err := s.app.Channels(r.Context(), a)
	if err != nil {
		return nil, err
	}
	ns, err := s.app.Notifications(r.Context(), a, recentNotifications)
	d := &notifyData{Channels: cs}
	if m := a.User.DigestMinute; m != nil {
		d.Digest = app.Clock(*m)
	}
	for _, n := range ns {
		// A clear an older ntfy refused left nothing unsaid.
		if n.State == "failed" && n.Kind != "clear" {
			d.Failed = append(d.Failed, n)
		}
	}
	return d, err
}

func (s *Server) pageChannelAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account#notifications", func(f *pageForm) error {
		_, _, err := s.app.CreateChannel(r.Context(), a, app.ChannelCreate{Type: "ntfy", URL: f.str("url"), Token: f.str("token"),
			Name: f.str("name")})
		return err
	})
}

// pageDigest sets the person's daily digest time; empty turns it off.
func (s *Server) pageDigest(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account?notice=edited#notifications", func(f *pageForm) error {
		in := app.UserUpdate{DigestTime: app.Patch[string]{Set: true, Null: true}}
		if t := strings.TrimSpace(f.str("digest_time")); t != "" {
			in.DigestTime = app.PatchOf(t)
		}
		_, err := s.app.UpdateUser(r.Context(), a, a.User.Username, in)
		return err
	})
}

func (s *Server) pageChannelRemove(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account#notifications", func(*pageForm) error {
		return s.app.DeleteChannel(r.Context(), a, wire.Param(r, "channel"))
	})
}

func (s *Server) pageChannelTest(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, "/account?notice=test_queued#notifications", func(*pageForm) error {
		_, err := s.app.TestChannel(r.Context(), a, wire.Param(r, "channel"))
		return err
	})
}
