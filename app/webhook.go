package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"slices"
	"strings"
	"time"
)

// Webhook is an endpoint that receives a workspace's events, or those of
// one project and the projects under it, signed per Standard Webhooks v1. It delivers only what its
// creator may see at the moment of delivery.
type Webhook struct {
	ID          string
	WorkspaceID string
	ProjectID   string // with the projects under it; empty: every project of the workspace
	ProjectKey  string
	URL         string
	// Events are the actions delivered: "*", "task.*", or one action.
	Events      []string
	Description string
	Active      bool
	CreatedBy   string // the creator's user id
	Creator     string // the creator's username
	// Secret signs every delivery; PreviousSecret signs beside it until
	// PreviousUntil after a rotation. Never shown after they are made.
	Secret         string
	PreviousSecret string
	PreviousUntil  *time.Time
	// FailingSince is the first failed attempt since the last success.
	FailingSince   *time.Time
	DisabledAt     *time.Time
	DisabledReason string
	Version        int
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Secrets are the secrets that sign a delivery at now: the current one,
// and the previous one while its rotation lasts.
func (w Webhook) Secrets(now time.Time) []string {
	out := []string{w.Secret}
	if w.PreviousSecret != "" && w.PreviousUntil != nil && now.Before(*w.PreviousUntil) {
		out = append(out, w.PreviousSecret)
	}
	return out
}

// WebhookCreate is an endpoint to add (POST /v1/webhooks).
type WebhookCreate struct {
	URL         string
	Events      []string
	Project     string // key or id; empty for the whole workspace
	Description string
}

// WebhookUpdate changes an endpoint (PATCH /v1/webhooks/{id}); nil fields stay.
type WebhookUpdate struct {
	URL         *string
	Events      *[]string
	Active      *bool
	Description *string
}

// WebhookRotation is how long a rotated secret keeps signing beside the new one.
const WebhookRotation = 24 * time.Hour

// maxWebhooks bounds a workspace's endpoints, so the outbox trigger that
// runs on every event stays cheap.
const maxWebhooks = 50

// maxWebhookPatterns bounds an endpoint's event patterns.
const maxWebhookPatterns = 50

type webhookTx interface {
	InsertWebhook(ctx context.Context, w *Webhook) error
	// WebhookByID reads an endpoint of a workspace, its secrets included.
	WebhookByID(ctx context.Context, workspaceID, id string) (Webhook, error)
	// Webhooks lists a workspace's endpoints in creation order.
	Webhooks(ctx context.Context, workspaceID string) ([]Webhook, error)
	// UpdateWebhook writes every changeable column of w.
	UpdateWebhook(ctx context.Context, w *Webhook) error
	// DeleteWebhook removes an endpoint, its outbox and its log.
	DeleteWebhook(ctx context.Context, id string) error
	webhookDeliveryTx
}

// Webhooks lists the endpoints of a workspace the caller manages.
func (s *Service) Webhooks(ctx context.Context, a Actor, workspace string) ([]Webhook, error) {
	var out []Webhook
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		out, err = managedWebhooks(ctx, tx, sc)
		return err
	}))
	return out, err
}

// WebhookLastAttempts answers the newest attempt of each endpoint the
// caller manages, by endpoint id (none for an endpoint that has made
// none): what a list of endpoints shows beside each, without reading every
// endpoint's log.
func (s *Service) WebhookLastAttempts(ctx context.Context, a Actor, workspace string) (map[string]WebhookAttempt, error) {
	out := map[string]WebhookAttempt{}
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		ws, err := managedWebhooks(ctx, tx, sc)
		for _, w := range ws {
			last, err := tx.WebhookAttempts(ctx, w.ID, 1)
			if err != nil {
				return err
			}
			if len(last) > 0 {
				out[w.ID] = last[0]
			}
		}
		return err
	}))
	return out, err
}

// managedWebhooks are the workspace's endpoints the caller manages.
func managedWebhooks(ctx context.Context, tx Tx, sc *scope) ([]Webhook, error) {
	if err := sc.ws.require(PermWorkspaceRead); err != nil {
		return nil, err
	}
	ws, err := tx.Webhooks(ctx, sc.ws.Workspace.ID)
	out := []Webhook{}
	for _, w := range ws {
		if webhookManager(sc, w.ProjectID) == nil {
			out = append(out, w)
		}
	}
	return out, err
}

// WebhookGet answers one endpoint the caller manages.
func (s *Service) WebhookGet(ctx context.Context, a Actor, workspace, id string) (Webhook, error) {
	var out Webhook
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		out, err = managedWebhook(ctx, tx, sc, id)
		return err
	}))
	return out, err
}

// webhookManager is the rule for who manages an endpoint: for the whole
// workspace, whoever may change the workspace (its owners and admins); for
// one project, whoever holds that right inside the project, which a
// project admin role grants.
func webhookManager(sc *scope, projectID string) error {
	if projectID == "" {
		return sc.ws.require(PermWorkspaceWrite)
	}
	n, err := sc.project(projectID)
	if err != nil {
		return err
	}
	if !has(n.Perms, PermWorkspaceWrite) {
		return Errorf(CodeForbidden, "your role in project %q does not let you manage its webhooks; a project admin's does", n.Key)
	}
	return nil
}

// managedWebhook finds an endpoint the caller manages. One it does not
// answers as one that does not exist: its address and events are the
// managers' business alone.
func managedWebhook(ctx context.Context, tx Tx, sc *scope, id string) (Webhook, error) {
	w, err := tx.WebhookByID(ctx, sc.ws.Workspace.ID, id)
	if err != nil {
		return Webhook{}, notFoundAs(err, "webhook")
	}
	if webhookManager(sc, w.ProjectID) != nil {
		return Webhook{}, NotFound("webhook")
	}
	return w, nil
}

// CreateWebhook adds an endpoint; the answer carries its secret, the one
// time it is shown.
func (s *Service) CreateWebhook(ctx context.Context, a Actor, workspace string, in WebhookCreate) (Webhook, error) {
	url := strings.TrimSpace(in.URL)
	if err := joinErrors(s.checkWebhookURL(ctx, url), checkWebhookEvents(in.Events),
		s.checkText("body.description", in.Description, s.limits.MaxTitleLength)); err != nil {
		return Webhook{}, err
	}
	var out Webhook
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		if err := sc.ws.require(PermWorkspaceRead); err != nil {
			return err
		}
		var projectID, projectKey string
		if in.Project != "" {
			n, err := sc.project(in.Project)
			if err != nil {
				return bodyRef(err, "body.project", "no project "+in.Project)
			}
			projectID, projectKey = n.ID, n.Key
		}
		if err := webhookManager(sc, projectID); err != nil {
			return err
		}
		ws, err := tx.Webhooks(ctx, sc.ws.Workspace.ID)
		if err != nil {
			return err
		}
		if err := checkCount("body.url", len(ws)+1, maxWebhooks, "webhooks per workspace"); err != nil {
			return err
		}
		now := tx.Now()
		out = Webhook{ID: newID(), WorkspaceID: sc.ws.Workspace.ID, ProjectID: projectID, ProjectKey: projectKey, URL: url,
			Events: slices.Compact(slices.Sorted(slices.Values(in.Events))), Description: in.Description, Active: true,
			CreatedBy: sc.acc.actor.User.ID, Creator: sc.acc.actor.User.Username, Secret: newWebhookSecret(),
			Version: 1, CreatedAt: now, UpdatedAt: now}
		if err := tx.InsertWebhook(ctx, &out); err != nil {
			return err
		}
		return recordWebhook(ctx, tx, a, out, "webhook.created", nil)
	}))
	return out, err
}

// UpdateWebhook changes an endpoint's address, events, description or
// whether it is active. Turning it on again clears a disabling and the
// failures that led to it; what it missed meanwhile is a replay away.
func (s *Service) UpdateWebhook(ctx context.Context, a Actor, workspace, id string, in WebhookUpdate) (Webhook, error) {
	var errs []error
	if in.URL != nil {
		u := strings.TrimSpace(*in.URL)
		in.URL = &u
		errs = append(errs, s.checkWebhookURL(ctx, u))
	}
	if in.Events != nil {
		errs = append(errs, checkWebhookEvents(*in.Events))
	}
	if in.Description != nil {
		errs = append(errs, s.checkText("body.description", *in.Description, s.limits.MaxTitleLength))
	}
	if err := joinErrors(errs...); err != nil {
		return Webhook{}, err
	}
	return s.changeWebhook(ctx, a, workspace, id, "webhook.updated", func(tx Tx, w *Webhook) error {
		if in.URL != nil {
			w.URL = *in.URL
		}
		if in.Events != nil {
			w.Events = slices.Compact(slices.Sorted(slices.Values(*in.Events)))
		}
		if in.Description != nil {
			w.Description = *in.Description
		}
		if in.Active != nil {
			if *in.Active && !w.Active {
				w.FailingSince, w.DisabledAt, w.DisabledReason = nil, nil, ""
			}
			w.Active = *in.Active
		}
		return saveWebhook(ctx, tx, w)
	})
}

// DeleteWebhook removes an endpoint with its outbox and log, and answers
// it as it was.
func (s *Service) DeleteWebhook(ctx context.Context, a Actor, workspace, id string) (Webhook, error) {
	return s.changeWebhook(ctx, a, workspace, id, "webhook.deleted", func(tx Tx, w *Webhook) error {
		return tx.DeleteWebhook(ctx, w.ID)
	})
}

// RotateWebhookSecret gives an endpoint a new secret, answered once; the
// old one keeps signing beside it for WebhookRotation, so a receiver can
// change over without missing a delivery.
func (s *Service) RotateWebhookSecret(ctx context.Context, a Actor, workspace, id string) (Webhook, error) {
	return s.changeWebhook(ctx, a, workspace, id, "webhook.rotated", func(tx Tx, w *Webhook) error {
		until := tx.Now().Add(WebhookRotation)
		w.PreviousSecret, w.PreviousUntil, w.Secret = w.Secret, &until, newWebhookSecret()
		return saveWebhook(ctx, tx, w)
	})
}

// changeWebhook makes change to the endpoint id names, which the caller
// manages, and records action, in one transaction; it answers the
// endpoint as changed.
func (s *Service) changeWebhook(ctx context.Context, a Actor, workspace, id, action string, change func(tx Tx, w *Webhook) error) (Webhook, error) {
	var out Webhook
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) (err error) {
		if out, err = managedWebhook(ctx, tx, sc, id); err != nil {
			return err
		}
		if err := change(tx, &out); err != nil {
			return err
		}
		return recordWebhook(ctx, tx, a, out, action, nil)
	}))
	return out, err
}

// saveWebhook writes a changed endpoint as its next version.
func saveWebhook(ctx context.Context, tx Tx, w *Webhook) error {
	w.Version++
	w.UpdatedAt = tx.Now()
	return tx.UpdateWebhook(ctx, w)
}

// recordWebhook records an endpoint's event. Like a view's, it belongs to
// no workspace's feed: an endpoint is its managers' business, and an event
// of its own must never be queued to it. The address is left out, as it
// may carry a receiver's own secret.
func recordWebhook(ctx context.Context, tx Tx, a Actor, w Webhook, action string, extra map[string]any) error {
	changes := map[string]any{"workspace_id": w.WorkspaceID, "events": w.Events, "active": w.Active}
	if w.ProjectKey != "" {
		changes["project"] = w.ProjectKey
	}
	for k, v := range extra {
		changes[k] = v
	}
	return record(ctx, tx, a, Event{EntityType: "webhook", EntityID: w.ID, Action: action, Changes: changes})
}

// newWebhookSecret is a Standard Webhooks secret: whsec_ and 32 random
// bytes in base64.
func newWebhookSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// checkWebhookURL refuses an address that is not http(s), or that is in a
// private or local range the operator has not allowed.
func (s *Service) checkWebhookURL(ctx context.Context, url string) error {
	return s.checkOutboundURL(ctx, "body.url", url, "where to deliver the events")
}

// checkWebhookEvents admits "*", a kind's every action ("task.*") or one
// action this release records.
func checkWebhookEvents(events []string) error {
	if len(events) == 0 {
		return Invalidf("body.events", `events is required: "*", a kind such as "task.*", or actions such as "comment.created"`)
	}
	if err := checkCount("body.events", len(events), maxWebhookPatterns, "event patterns per webhook"); err != nil {
		return err
	}
	for _, p := range events {
		if !webhookPattern(p) {
			return Invalidf("body.events", `%q names no event: use "*", a kind such as "task.*", or an action GET /v1/meta lists`, p)
		}
	}
	return nil
}

func webhookPattern(p string) bool {
	if p == "*" {
		return true
	}
	kind, all := strings.CutSuffix(p, ".*")
	for _, act := range Actions {
		if act == p || (all && strings.HasPrefix(act, kind+".")) {
			return true
		}
	}
	return false
}
