package web

import (
	"context"
	"html/template"
	"net/http"

	"tend/app"
	"tend/web/wire"
)

// channelService is the part of app.Service the push key and action
// routes call beyond what the pages do (the channels, the notifications).
type channelService interface {
	PushKeys(ctx context.Context) (app.VAPIDKeys, error)
	UseAction(ctx context.Context, token string) (app.ActionDone, error)
}

// notificationsDefault is how many notifications a read answers unless it
// asks.
const notificationsDefault = 50

func channelParam(r *http.Request) string { return wire.Param(r, "channel") }

func (s *Server) handleChannelList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewChannel)(s.app.Channels(r.Context(), a))
}

// handleChannelCreate answers 201 with a new channel, 200 with the one a
// browser subscribed already.
func (s *Server) handleChannelCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.ChannelCreate) error {
	c, created, err := s.app.CreateChannel(r.Context(), a, in.App())
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	return reply(w, status, wire.NewChannel)(c, err)
}

func (s *Server) handleChannelTest(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return reply(w, http.StatusAccepted, wire.NewNotification)(s.app.TestChannel(r.Context(), a, channelParam(r)))
}

func (s *Server) handleNotificationList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	limit := q.Limit()
	if err := q.Err(); err != nil {
		return err
	}
	if limit == 0 {
		limit = notificationsDefault
	}
	return replyList(w, wire.NewNotification)(s.app.Notifications(r.Context(), a, limit))
}

// pushKeyJSON is the answer of GET /v1/push/key: what a browser subscribes
// with (applicationServerKey).
type pushKeyJSON struct {
	VAPIDPublicKey string `json:"vapid_public_key"`
}

func (s *Server) handlePushKey(w http.ResponseWriter, r *http.Request, _ app.Actor) error {
	return reply(w, http.StatusOK, func(k app.VAPIDKeys) pushKeyJSON { return pushKeyJSON{k.Public} })(s.app.PushKeys(r.Context()))
}

// actionJSON is what an action link did.
type actionJSON struct {
	Action string  `json:"action"`
	TaskID string  `json:"task_id"`
	Ref    int64   `json:"ref"`
	Title  string  `json:"title"`
	Until  *string `json:"until"`
}

// handleActionUse does what an action link says. A browser's form (the
// GET page's button) is answered with a page, anything else (ntfy's http
// action, a service worker) with JSON.
func (s *Server) handleActionUse(w http.ResponseWriter, r *http.Request, _ app.Actor) error {
	d, err := s.app.UseAction(r.Context(), wire.Param(r, "token"))
	if err != nil {
		return err
	}
	out := actionJSON{Action: d.Action, TaskID: d.Task.ID, Ref: d.Task.Ref, Title: d.Task.Title, Until: wire.StampPtr(d.Until)}
	if r.Header.Get("Content-Type") == "application/x-www-form-urlencoded" {
		return actionPage(w, out)
	}
	return wire.WriteJSON(w, http.StatusOK, out)
}

// handleActionPage answers a link opened in a browser with a button that
// POSTs it: a GET acts on nothing, so a mail or chat app fetching the link
// to show a preview does not complete the task.
func (s *Server) handleActionPage(w http.ResponseWriter, _ *http.Request, _ app.Actor) error {
	return actionPage(w, actionJSON{})
}

var actionTemplate = template.Must(template.New("action").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>tend</title></head><body><main>
{{if .Action}}<h1>{{if eq .Action "done"}}Done{{else}}Snoozed{{end}}</h1><p>{{.Title}}</p>
{{else}}<h1>tend</h1><form method="post"><button type="submit">Do it</button></form>{{end}}
</main></body></html>`))

func actionPage(w http.ResponseWriter, d actionJSON) error {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'self'; form-action 'self'; frame-ancestors 'none'")
	h.Set("Cache-Control", "no-store")
	h.Set("Referrer-Policy", "no-referrer")
	return actionTemplate.Execute(w, d)
}
