package pages

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"tend/app"
	"tend/web/wire"
)

// The webhooks page (issue 35 §2): the endpoints a person manages, the
// form that adds one, and each endpoint's own page with its edit form,
// its switch, its secret's rotation, its delivery log and its replay. Every
// action is one call of the Service methods the API's /v1/webhooks calls.

// webhookRoutes mounts the webhooks page and its actions.
func (s *Server) webhookRoutes(rt Router) {
	s.page(rt, http.MethodGet, "/webhooks", s.managing(s.pageWebhooks))
	s.page(rt, http.MethodPost, "/webhooks", s.managing(s.pageWebhookAdd))
	s.page(rt, http.MethodGet, "/webhooks/:webhook", s.managing(s.pageWebhook))
	s.page(rt, http.MethodPost, "/webhooks/:webhook", s.managing(s.pageWebhookEdit))
	s.page(rt, http.MethodPost, "/webhooks/:webhook/active", s.managing(s.pageWebhookActive))
	s.page(rt, http.MethodPost, "/webhooks/:webhook/rotate", s.managing(s.pageWebhookRotate))
	s.page(rt, http.MethodPost, "/webhooks/:webhook/delete", s.managing(s.pageWebhookDelete))
	s.page(rt, http.MethodPost, "/webhooks/:webhook/redeliver/:delivery", s.managing(s.pageWebhookRedeliver))
	s.page(rt, http.MethodPost, "/webhooks/:webhook/replay", s.managing(s.pageWebhookReplay))
}

// managing lets fn answer only someone who may manage webhooks in the
// workspace shown; anyone else is answered exactly as a path no route
// takes, so the page's very existence tells them nothing. A person with several
// workspaces who has chosen none is asked to choose, as every page asks.
func (s *Server) managing(fn pageFunc) pageFunc {
	return s.gate(func(r *http.Request, a app.Actor, me app.Me) (bool, error) {
		if workspaceOf(r) == "" && len(me.Workspaces) > 1 {
			return false, app.Errorf(app.CodeWorkspaceRequired, "choose a workspace")
		}
		return s.managesWebhooks(r, a, me)
	}, func(w http.ResponseWriter, r *http.Request, a app.Actor, _ app.Me) error { return fn(w, r, a) })
}

// gate lets fn answer only those may admits, reading who they are once;
// anyone else is answered exactly as a path no route takes.
func (s *Server) gate(may func(*http.Request, app.Actor, app.Me) (bool, error),
	fn func(http.ResponseWriter, *http.Request, app.Actor, app.Me) error) pageFunc {
	return func(w http.ResponseWriter, r *http.Request, a app.Actor) error {
		me, err := s.app.Me(r.Context(), a)
		if err != nil {
			return err
		}
		ok, err := may(r, a, me)
		if err != nil {
			return err
		}
		if !ok {
			s.nowhere.ServeHTTP(w, r)
			return nil
		}
		return fn(w, r, a, me)
	}
}

// managesWebhooks reports whether the person manages any webhook in the
// workspace shown: the Service's rule (workspace owners and admins, a
// project admin for the project), read from their permissions, so the
// link and the page show only where the Service would act.
func (s *Server) managesWebhooks(r *http.Request, a app.Actor, me app.Me) (bool, error) {
	ws, ok := shownWorkspace(me, workspaceOf(r))
	if !ok {
		return false, nil
	}
	if slices.Contains(ws.Permissions, app.PermWorkspaceWrite) {
		return true, nil
	}
	held, err := s.app.ProjectRolesHeld(r.Context(), a)
	if err != nil {
		return false, err
	}
	for _, p := range held {
		if strings.HasPrefix(p.Address, ws.Slug+"/") && slices.Contains(p.Permissions, app.PermWorkspaceWrite) {
			return true, nil
		}
	}
	return false, nil
}

// webhookRow is an endpoint as the pages show it: never its secret.
type webhookRow struct {
	ID, URL, Project, Description, Creator string
	Events                                 []string
	Active                                 bool
	FailingSince, DisabledAt               *time.Time
	DisabledReason                         string
	// RotatingUntil is when the secret the last rotation replaced stops
	// (or stopped) signing; nil before any rotation.
	RotatingUntil *time.Time
	Last          *app.WebhookAttempt // the newest attempt, nil before any
}

func newWebhookRow(h app.Webhook) webhookRow {
	row := webhookRow{ID: h.ID, URL: h.URL, Project: h.ProjectKey, Description: h.Description, Creator: h.Creator,
		Events: h.Events, Active: h.Active, FailingSince: h.FailingSince, DisabledAt: h.DisabledAt,
		DisabledReason: h.DisabledReason}
	if h.PreviousSecret != "" {
		row.RotatingUntil = h.PreviousUntil
	}
	return row
}

// webhookForm is what the add and edit forms hold: the saved endpoint, or
// what the person sent, kept beside its refusal.
type webhookForm struct {
	URL, Events, Project, Description string
	// Errors says, by field name, what was wrong with it; Refused is the
	// refusal's message when it names no field, Code its stable code.
	// Posted: the form holds what was sent, not the saved endpoint.
	Errors  map[string]string
	Refused string
	Code    app.Code
	Posted  bool
}

func savedWebhookForm(h webhookRow) webhookForm {
	return webhookForm{URL: h.URL, Events: strings.Join(h.Events, ", "), Project: h.Project, Description: h.Description}
}

func postedWebhookForm(f *pageForm) webhookForm {
	return webhookForm{URL: f.str("url"), Events: f.str("events"), Project: f.str("project"), Description: f.str("description"),
		Posted: true}
}

// events reads the patterns as the form writes them: apart by commas or
// spaces.
func (f webhookForm) events() []string {
	return strings.FieldsFunc(f.Events, func(r rune) bool { return r == ',' || unicode.IsSpace(r) })
}

// refused keeps err on the form when it is about what the person wrote (a
// field, or a right they lack for it), with the status the API gives it;
// it reports false for any other error, which is the error page's.
func (f *webhookForm) refused(err error) (int, bool) {
	e := app.AsError(err)
	if len(e.Fields) == 0 && e.Code != app.CodeForbidden {
		return 0, false
	}
	f.Code, f.Errors = e.Code, map[string]string{}
	for _, fe := range e.Fields {
		if n := len(fe.Loc); n > 0 && slices.Contains([]string{"url", "events", "project", "description"}, fe.Loc[n-1]) {
			f.Errors[fe.Loc[n-1]] = fe.Msg
		} else {
			f.Refused = fe.Msg
		}
	}
	if len(e.Fields) == 0 {
		f.Refused = e.Detail
	}
	return wire.NewProblem(err).Status, true
}

// webhooksData is the list page's data.
type webhooksData struct {
	Hooks    []webhookRow
	Projects []app.ProjectView
	Form     webhookForm
	// Added is the endpoint just added, with NewSecret its secret: shown
	// on this answer only.
	Added     *webhookRow
	NewSecret string
}

// webhookData is one endpoint's page.
type webhookData struct {
	Hook webhookRow
	Form webhookForm
	Log  []webhookLogRow
	// NewSecret is the secret a rotation just made, shown on this answer
	// only.
	NewSecret string
}

// webhookLogRow is one attempt of the log, with whether it is the newest
// of its delivery, the one row that offers to send it again.
type webhookLogRow struct {
	app.WebhookAttempt
	Answer    string // the answer's first answerShown characters
	Clipped   bool
	Redeliver bool
}

// answerShown is how much of an answer a row of the log shows; the API's
// log has the first kilobyte.
const answerShown = 200

// webhookNotices are the webhook pages' messages after a redirect, by key.
var webhookNotices = map[string]string{
	"webhook_on":      "Turned on. What it missed while it was off is not sent by itself: replay from the seq it stopped at to send it.",
	"webhook_off":     "Turned off: nothing is queued for it until it is turned on again.",
	"webhook_deleted": "Deleted the webhook, with its queue and its delivery log.",
	"redelivered":     "Queued again, after what it already has queued; it goes out with the same webhook-id.",
}

// pageWebhooks lists the endpoints the person manages.
func (s *Server) pageWebhooks(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.renderWebhooks(w, r, a, http.StatusOK, webhooksData{})
}

func (s *Server) renderWebhooks(w http.ResponseWriter, r *http.Request, a app.Actor, status int, d webhooksData) error {
	ctx, ws := r.Context(), workspaceOf(r)
	hooks, err := s.app.Webhooks(ctx, a, ws)
	if err != nil {
		return err
	}
	last, err := s.app.WebhookLastAttempts(ctx, a, ws)
	if err != nil {
		return err
	}
	for _, h := range hooks {
		row := newWebhookRow(h)
		if at, ok := last[h.ID]; ok {
			row.Last = &at
		}
		d.Hooks = append(d.Hooks, row)
	}
	if d.Projects, err = s.app.Projects(ctx, a, ws, false); err != nil {
		return err
	}
	return s.render(w, status, "webhooks", s.webhookView(r, a, "Webhooks", d))
}

// webhookView is the page data of a webhook page, with its own notices.
func (s *Server) webhookView(r *http.Request, a app.Actor, title string, d any) pageView {
	v := s.view(r, a, title, "account", d)
	q := r.URL.Query()
	if n, ok := webhookNotices[q.Get("notice")]; ok {
		v.Notice = n
	}
	if n, err := strconv.Atoi(q.Get("queued")); err == nil && q.Get("notice") == "replayed" {
		events := strconv.Itoa(n) + " events"
		if n == 1 {
			events = "1 event"
		}
		v.Notice = "Queued " + events + " to send again, in seq order, after what was already queued."
		if q.Get("more") != "" {
			v.Notice += " That is as many as one replay queues: replay again from the seq after the last one sent."
		}
	}
	return v
}

// pageWebhookAdd adds an endpoint and shows its secret on this answer only
// (no redirect: a secret must not travel in a URL). A refusal shows the
// form again with what was sent and what was wrong with it.
func (s *Server) pageWebhookAdd(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	form := postedWebhookForm(f)
	h, err := s.app.CreateWebhook(r.Context(), a, workspaceOf(r), app.WebhookCreate{URL: form.URL, Events: form.events(),
		Project: strings.TrimSpace(form.Project), Description: form.Description})
	if err != nil {
		status, ok := form.refused(err)
		if !ok {
			return err
		}
		return s.renderWebhooks(w, r, a, status, webhooksData{Form: form})
	}
	row := newWebhookRow(h)
	return s.renderWebhooks(w, r, a, http.StatusOK, webhooksData{Added: &row, NewSecret: h.Secret})
}

// pageWebhook is one endpoint's page.
func (s *Server) pageWebhook(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.renderWebhook(w, r, a, http.StatusOK, webhookData{})
}

func (s *Server) renderWebhook(w http.ResponseWriter, r *http.Request, a app.Actor, status int, d webhookData) error {
	ctx, ws, id := r.Context(), workspaceOf(r), wire.Param(r, "webhook")
	h, err := s.app.WebhookGet(ctx, a, ws, id)
	if err != nil {
		return err
	}
	log, err := s.app.WebhookLog(ctx, a, ws, id)
	if err != nil {
		return err
	}
	d.Hook = newWebhookRow(h)
	if len(log) > 0 {
		d.Hook.Last = &log[0]
	}
	if !d.Form.Posted {
		d.Form = savedWebhookForm(d.Hook)
	}
	seen := map[int64]bool{}
	for _, at := range log {
		row := webhookLogRow{WebhookAttempt: at, Answer: at.Answer, Redeliver: !seen[at.DeliverySeq]}
		if rs := []rune(at.Answer); len(rs) > answerShown {
			row.Answer, row.Clipped = string(rs[:answerShown]), true
		}
		seen[at.DeliverySeq] = true
		d.Log = append(d.Log, row)
	}
	return s.render(w, status, "webhook", s.webhookView(r, a, "Webhook "+h.URL, d))
}

// hookPath is an endpoint's page, with a place on it.
func hookPath(r *http.Request, fragment string) string {
	return "/webhooks/" + url.PathEscape(wire.Param(r, "webhook")) + fragment
}

// pageWebhookEdit saves the edit form: address, events and description.
func (s *Server) pageWebhookEdit(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	form := postedWebhookForm(f)
	events := form.events()
	in := app.WebhookUpdate{URL: &form.URL, Events: &events, Description: &form.Description}
	if _, err := s.app.UpdateWebhook(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"), in); err != nil {
		status, ok := form.refused(err)
		if !ok {
			return err
		}
		return s.renderWebhook(w, r, a, status, webhookData{Form: form})
	}
	return seeOther(w, r, withNotice(hookPath(r, ""), "edited"))
}

// pageWebhookActive turns an endpoint on (which clears a disabling) or off.
func (s *Server) pageWebhookActive(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	on := f.str("active") == "true"
	if _, err := s.app.UpdateWebhook(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"), app.WebhookUpdate{Active: &on}); err != nil {
		return err
	}
	if on {
		return seeOther(w, r, withNotice(hookPath(r, ""), "webhook_on"))
	}
	return seeOther(w, r, withNotice(hookPath(r, ""), "webhook_off"))
}

// pageWebhookRotate gives the endpoint a new secret and shows it on this
// answer only.
func (s *Server) pageWebhookRotate(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	if _, err := s.form(w, r); err != nil {
		return err
	}
	h, err := s.app.RotateWebhookSecret(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"))
	if err != nil {
		return err
	}
	return s.renderWebhook(w, r, a, http.StatusOK, webhookData{NewSecret: h.Secret})
}

// pageWebhookDelete removes the endpoint with its queue and log; the page
// asked first, as a project's trash does.
func (s *Server) pageWebhookDelete(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, withNotice("/webhooks", "webhook_deleted"), func(*pageForm) error {
		_, err := s.app.DeleteWebhook(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"))
		return err
	})
}

// pageWebhookRedeliver queues a delivery's event to the endpoint again. A
// {delivery} that names none is not found, as the API answers it.
func (s *Server) pageWebhookRedeliver(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	return s.submit(w, r, withNotice(hookPath(r, ""), "redelivered")+"#log", func(*pageForm) error {
		n, err := strconv.ParseInt(wire.Param(r, "delivery"), 10, 64)
		if err != nil {
			return app.NotFound("delivery")
		}
		_, err = s.app.RedeliverWebhook(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"), n)
		return err
	})
}

// pageWebhookReplay queues every event the endpoint matches from seq since
// on, and says how many.
func (s *Server) pageWebhookReplay(w http.ResponseWriter, r *http.Request, a app.Actor) error {
	f, err := s.form(w, r)
	if err != nil {
		return err
	}
	since, err := strconv.ParseInt(strings.TrimSpace(f.str("since")), 10, 64)
	if err != nil || since < 0 {
		return app.Invalidf("form.since", "since is required: the seq to replay from, a whole number, 0 or more")
	}
	rep, err := s.app.ReplayWebhook(r.Context(), a, workspaceOf(r), wire.Param(r, "webhook"), since)
	if err != nil {
		return err
	}
	q := url.Values{"notice": {"replayed"}, "queued": {strconv.Itoa(rep.Queued)}}
	if rep.More {
		q.Set("more", "1")
	}
	return seeOther(w, r, hookPath(r, "?"+q.Encode()+"#log"))
}
