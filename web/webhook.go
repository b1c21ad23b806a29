package web

import (
	"context"
	"net/http"
	"strconv"

	"tend/app"
	"tend/web/wire"
)

// webhookService is the part of app.Service the webhook routes call.
type webhookService interface {
	Webhooks(ctx context.Context, a app.Actor, workspace string) ([]app.Webhook, error)
	CreateWebhook(ctx context.Context, a app.Actor, workspace string, in app.WebhookCreate) (app.Webhook, error)
	WebhookGet(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	UpdateWebhook(ctx context.Context, a app.Actor, workspace, id string, in app.WebhookUpdate) (app.Webhook, error)
	DeleteWebhook(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	RotateWebhookSecret(ctx context.Context, a app.Actor, workspace, id string) (app.Webhook, error)
	WebhookLog(ctx context.Context, a app.Actor, workspace, id string) ([]app.WebhookAttempt, error)
	RedeliverWebhook(ctx context.Context, a app.Actor, workspace, id string, delivery int64) (app.WebhookDelivery, error)
	ReplayWebhook(ctx context.Context, a app.Actor, workspace, id string, since int64) (app.WebhookReplay, error)
}

// webhookParam is the {webhook} path parameter: an endpoint's id.
func webhookParam(r *http.Request) string { return wire.Param(r, "webhook") }

func (s *Server) handleWebhookList(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewWebhook)(s.app.Webhooks(r.Context(), a, wsParam(r)))
}

func (s *Server) handleWebhookCreate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.WebhookCreate) error {
	return reply(w, http.StatusCreated, wire.NewIssuedWebhook)(s.app.CreateWebhook(r.Context(), a, wsParam(r), in.App()))
}

func (s *Server) handleWebhookUpdate(w http.ResponseWriter, r *http.Request, a app.Actor, in wire.WebhookUpdate) error {
	return reply(w, http.StatusOK, wire.NewWebhook)(s.app.UpdateWebhook(r.Context(), a, wsParam(r), webhookParam(r), in.App()))
}

func (s *Server) handleWebhookLog(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return replyList(w, wire.NewWebhookAttempt)(s.app.WebhookLog(r.Context(), a, wsParam(r), webhookParam(r)))
}

// handleWebhookRedeliver queues a delivery's event again. A {delivery}
// that names none answers 404, as any path that names nothing does.
func (s *Server) handleWebhookRedeliver(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	n, err := strconv.ParseInt(wire.Param(r, "delivery"), 10, 64)
	if err != nil {
		return app.NotFound("delivery")
	}
	return reply(w, http.StatusAccepted, wire.NewWebhookDelivery)(s.app.RedeliverWebhook(r.Context(), a, wsParam(r), webhookParam(r), n))
}

func (s *Server) handleWebhookReplay(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	q := wire.NewQuery(r)
	v := q.Str("since")
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		q.Fail("since", "since is required: the seq to replay from, a whole number, 0 or more")
	}
	if err := q.Err(); err != nil {
		return err
	}
	return reply(w, http.StatusAccepted, wire.NewWebhookReplay)(s.app.ReplayWebhook(r.Context(), a, wsParam(r), webhookParam(r), n))
}
