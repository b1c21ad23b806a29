package app_test

import (
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// hookFixture is a fixture whose webhooks may call loopback, with retries
// that are not spread, so a test knows when each falls due.
func hookFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWith(t, app.Options{Version: "test", Outbound: storetest.Loopback(t), WebhookJitter: func(d time.Duration) time.Duration { return d }})
}

const hookURL = "http://127.0.0.1:9/hook"

// hook makes, as a, an endpoint at hookURL in the default workspace for
// the events patterns name.
func (f *fixture) hook(a app.Actor, patterns ...string) app.Webhook {
	f.t.Helper()
	return must(f.svc.CreateWebhook(f.ctx, a, "", app.WebhookCreate{URL: hookURL, Events: patterns}))(f.t)
}

// lease takes what is due now and fails on an error.
func (f *fixture) lease() []app.WebhookSend {
	f.t.Helper()
	out, _, err := f.svc.WebhookLease(f.ctx, 100, time.Minute)
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func (f *fixture) answer(s app.WebhookSend, status int) {
	f.t.Helper()
	if err := f.svc.WebhookAttempted(f.ctx, app.WebhookResult{DeliverySeq: s.Delivery.Seq, Status: status}); err != nil {
		f.t.Fatal(err)
	}
}

// TestWebhookCreateShowsSecretOnceAndQueues: the secret is whsec_ and
// signs; the events the patterns match are queued in their own
// transaction, and nothing else.
func TestWebhookCreateShowsSecretOnceAndQueues(t *testing.T) {
	f := hookFixture(t)
	w := f.hook(f.admin, "task.created", "comment.*")
	if !strings.HasPrefix(w.Secret, "whsec_") || !w.Active || w.Creator == "" {
		t.Fatalf("created %+v", w)
	}
	task := f.task(f.admin, app.TaskCreate{Title: "one"})
	must(f.svc.UpdateTask(f.ctx, f.admin, "", ref(task.Ref), app.TaskUpdate{Title: app.Patch[string]{Set: true, Value: "two"}}))(t)
	sends := f.lease()
	if len(sends) != 1 || sends[0].Event.Action != "task.created" || sends[0].URL != hookURL || len(sends[0].Secrets) != 1 {
		t.Fatalf("leased %+v, want the task.created alone", sends)
	}
	if again := f.lease(); len(again) != 0 {
		t.Fatalf("leased %d while the head is in flight, want none: one in flight per endpoint", len(again))
	}
	f.answer(sends[0], 204)
	if again := f.lease(); len(again) != 0 {
		t.Fatalf("task.updated was queued to a hook that asked only for task.created")
	}
	log := must(f.svc.WebhookLog(f.ctx, f.admin, "", w.ID))(t)
	if len(log) != 1 || log[0].Outcome != "delivered" || log[0].Status != 204 {
		t.Fatalf("log %+v", log)
	}
}

// TestWebhookRefusals: addresses, events and the managers' rule, each with
// its code.
func TestWebhookRefusals(t *testing.T) {
	f := newFixture(t)
	for _, in := range []app.WebhookCreate{
		{URL: "http://127.0.0.1/x", Events: []string{"*"}},
		{URL: "http://10.0.0.1/x", Events: []string{"*"}},
		{URL: "http://localhost:8080/x", Events: []string{"*"}},
		{URL: "ftp://example.com/", Events: []string{"*"}},
		{URL: "", Events: []string{"*"}},
		{URL: "https://93.184.216.34/x", Events: nil},
		{URL: "https://93.184.216.34/x", Events: []string{"nothing.*"}},
		{URL: "https://93.184.216.34/x", Events: []string{"task.nope"}},
	} {
		_, err := f.svc.CreateWebhook(f.ctx, f.admin, "", in)
		wantCode(t, err, app.CodeValidation)
	}
	member := f.person("mel", app.RoleMember)
	_, err := f.svc.CreateWebhook(f.ctx, member, "", app.WebhookCreate{URL: "https://93.184.216.34/x", Events: []string{"*"}})
	wantCode(t, err, app.CodeForbidden)
	f.project(f.admin, app.ProjectCreate{Key: "web"})
	_, err = f.svc.CreateWebhook(f.ctx, member, "", app.WebhookCreate{URL: "https://93.184.216.34/x", Events: []string{"*"}, Project: "web"})
	wantCode(t, err, app.CodeForbidden)
	_, err = f.svc.CreateWebhook(f.ctx, member, "", app.WebhookCreate{URL: "https://93.184.216.34/x", Events: []string{"*"}, Project: "nope"})
	wantField(t, err, "body.project")
	// A project admin manages the project's webhooks, not the workspace's.
	must(f.svc.SetProjectRole(f.ctx, f.admin, "", "web", "mel", app.ProjectRoleGrant{Role: app.RoleAdmin}))(t)
	pw := must(f.svc.CreateWebhook(f.ctx, member, "", app.WebhookCreate{URL: "https://93.184.216.34/x", Events: []string{"*"}, Project: "web"}))(t)
	ww := must(f.svc.CreateWebhook(f.ctx, f.admin, "", app.WebhookCreate{URL: "https://93.184.216.34/y", Events: []string{"*"}}))(t)
	if got := must(f.svc.Webhooks(f.ctx, member, ""))(t); len(got) != 1 || got[0].ID != pw.ID {
		t.Fatalf("the project admin lists %+v, want only the project's webhook", got)
	}
	_, err = f.svc.WebhookGet(f.ctx, member, "", ww.ID)
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.DeleteWebhook(f.ctx, member, "", ww.ID)
	wantCode(t, err, app.CodeNotFound)
	_, err = f.svc.UpdateWebhook(f.ctx, f.admin, "", ww.ID, app.WebhookUpdate{URL: ptr("http://192.168.1.1/")})
	wantCode(t, err, app.CodeValidation)
	_, err = f.svc.ReplayWebhook(f.ctx, f.admin, "", ww.ID, -1)
	wantCode(t, err, app.CodeValidation)
	_, err = f.svc.RedeliverWebhook(f.ctx, f.admin, "", ww.ID, 999)
	wantCode(t, err, app.CodeNotFound)
}

// TestWebhookRetriesThenDisables: failures retry on the schedule (later
// when Retry-After says so), a delivery whose retries are spent gives way
// to the next, and five days of failure disable the endpoint with an event.
func TestWebhookRetriesThenDisables(t *testing.T) {
	f := hookFixture(t)
	w := f.hook(f.admin, "task.created")
	first := f.task(f.admin, app.TaskCreate{Title: "first"})
	f.task(f.admin, app.TaskCreate{Title: "second"})
	s := f.lease()
	f.answer(s[0], 500)
	if got := f.lease(); len(got) != 0 {
		t.Fatalf("retried at once; the second was sent before the first: %+v", got)
	}
	_, next, _ := f.svc.WebhookLease(f.ctx, 10, time.Minute)
	if want := f.clock.Now().Add(5 * time.Second); !next.Equal(want) {
		t.Fatalf("next due %v, want %v", next, want)
	}
	f.clock.Advance(5 * time.Second)
	s = f.lease()
	if len(s) != 1 || s[0].Event.ItemRef == nil || *s[0].Event.ItemRef != first.Ref {
		t.Fatalf("the retry leased %+v", s)
	}
	if err := f.svc.WebhookAttempted(f.ctx, app.WebhookResult{DeliverySeq: s[0].Delivery.Seq, Status: 503, RetryAfter: time.Hour}); err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(5 * time.Minute)
	if got := f.lease(); len(got) != 0 {
		t.Fatalf("Retry-After of an hour not honoured")
	}
	// Spend every retry of the first.
	for i := 0; i < len(app.WebhookRetries)-1; i++ {
		f.clock.Advance(25 * time.Hour)
		s = f.lease()
		if len(s) != 1 {
			t.Fatalf("retry %d: leased %d", i, len(s))
		}
		f.answer(s[0], 500)
		if w = must(f.svc.WebhookGet(f.ctx, f.admin, "", w.ID))(t); !w.Active {
			break
		}
	}
	if w.Active || w.DisabledAt == nil || !strings.Contains(w.DisabledReason, "5 days") {
		t.Fatalf("after five days of failure: %+v", w)
	}
	log := must(f.svc.WebhookLog(f.ctx, f.admin, "", w.ID))(t)
	if log[0].Outcome != "disabled" {
		t.Fatalf("log starts %+v", log[0])
	}
	if got := f.lease(); len(got) != 0 {
		t.Fatalf("a disabled endpoint leased %d", len(got))
	}
	// Turned on again, it resumes where it stopped.
	must(f.svc.UpdateWebhook(f.ctx, f.admin, "", w.ID, app.WebhookUpdate{Active: ptr(true)}))(t)
	s = f.lease()
	if len(s) != 1 || *s[0].Event.ItemRef != first.Ref {
		t.Fatalf("after turning on: %+v", s)
	}
}

// TestWebhookGone: 410 disables at once.
func TestWebhookGone(t *testing.T) {
	f := hookFixture(t)
	w := f.hook(f.admin, "*")
	f.task(f.admin, app.TaskCreate{Title: "one"})
	f.answer(f.lease()[0], 410)
	w = must(f.svc.WebhookGet(f.ctx, f.admin, "", w.ID))(t)
	if w.Active || !strings.Contains(w.DisabledReason, "410") {
		t.Fatalf("after 410: %+v", w)
	}
}

// TestWebhookGivesUpAfterLastRetry: a delivery whose every retry failed is
// marked failed and the next proceeds: the schedule ends within the five
// days that disable an endpoint.
func TestWebhookGivesUpAfterLastRetry(t *testing.T) {
	f := hookFixture(t)
	w := f.hook(f.admin, "task.created")
	f.task(f.admin, app.TaskCreate{Title: "first"})
	second := f.task(f.admin, app.TaskCreate{Title: "second"})
	for i := 0; i <= len(app.WebhookRetries); i++ {
		s := f.lease()
		if len(s) != 1 {
			t.Fatalf("attempt %d leased %d", i, len(s))
		}
		f.answer(s[0], 500)
		if i < len(app.WebhookRetries) {
			f.clock.Advance(app.WebhookRetries[i])
		}
	}
	s := f.lease()
	if len(s) != 1 || *s[0].Event.ItemRef != second.Ref {
		t.Fatalf("after the first was given up: %+v", s)
	}
	if log := must(f.svc.WebhookLog(f.ctx, f.admin, "", w.ID))(t); log[0].Outcome != "failed" {
		t.Fatalf("log starts %+v", log[0])
	}
}

// TestWebhookDisclosure: an endpoint receives only what its creator may
// see when the delivery is due; a deactivated creator stops it.
func TestWebhookDisclosure(t *testing.T) {
	f := hookFixture(t)
	ada := f.person("ada", app.RoleAdmin)
	w := f.hook(ada, "task.*")
	f.secretTask()
	visible := f.task(f.admin, app.TaskCreate{Title: "visible"})
	s := f.lease()
	if len(s) != 1 || *s[0].Event.ItemRef != visible.Ref {
		t.Fatalf("leased %+v, want the visible task's event alone", s)
	}
	f.answer(s[0], 200)
	log := must(f.svc.WebhookLog(f.ctx, f.admin, "", w.ID))(t)
	if len(log) != 2 || log[1].Outcome != "skipped" {
		t.Fatalf("log %+v, want the private task's event skipped", log)
	}
	must(f.svc.UpdateUser(f.ctx, f.admin, "ada", app.UserUpdate{Active: app.Patch[bool]{Set: true, Value: false}}))(t)
	f.task(f.admin, app.TaskCreate{Title: "after"})
	if got := f.lease(); len(got) != 0 {
		t.Fatalf("a deactivated creator's webhook leased %+v", got)
	}
	log = must(f.svc.WebhookLog(f.ctx, f.admin, "", w.ID))(t)
	if log[0].Outcome != "skipped" || !strings.Contains(log[0].Error, "deactivated") {
		t.Fatalf("log starts %+v", log[0])
	}
}

// TestWebhookRedeliverReplayRotate: redelivery and replay queue events
// again at the end; a rotation signs with both secrets for a day.
func TestWebhookRedeliverReplayRotate(t *testing.T) {
	f := hookFixture(t)
	w := f.hook(f.admin, "task.created")
	a := f.task(f.admin, app.TaskCreate{Title: "a"})
	f.task(f.admin, app.TaskCreate{Title: "b"})
	s := f.lease()
	f.answer(s[0], 200)
	first := s[0]
	f.answer(f.lease()[0], 200)
	d := must(f.svc.RedeliverWebhook(f.ctx, f.admin, "", w.ID, first.Delivery.Seq))(t)
	if d.EventSeq != first.Event.Seq || d.State != "pending" {
		t.Fatalf("redelivery %+v", d)
	}
	rot := must(f.svc.RotateWebhookSecret(f.ctx, f.admin, "", w.ID))(t)
	s = f.lease()
	if len(s) != 1 || s[0].Event.ID != first.Event.ID || len(s[0].Secrets) != 2 || s[0].Secrets[0] != rot.Secret ||
		s[0].Secrets[1] != w.Secret {
		t.Fatalf("redelivered %+v", s)
	}
	f.answer(s[0], 200)
	r := must(f.svc.ReplayWebhook(f.ctx, f.admin, "", w.ID, first.Event.Seq))(t)
	if r.Queued != 2 || r.More {
		t.Fatalf("replay %+v", r)
	}
	f.clock.Advance(app.WebhookRotation)
	s = f.lease()
	if len(s) != 1 || *s[0].Event.ItemRef != a.Ref || len(s[0].Secrets) != 1 {
		t.Fatalf("replayed %+v", s)
	}
	if got := must(f.svc.Webhooks(f.ctx, f.admin, ""))(t); len(got) != 1 {
		t.Fatalf("listed %d", len(got))
	}
	must(f.svc.DeleteWebhook(f.ctx, f.admin, "", w.ID))(t)
	f.answer(s[0], 200) // an answer for a deleted endpoint is dropped
	_, err := f.svc.WebhookGet(f.ctx, f.admin, "", w.ID)
	wantCode(t, err, app.CodeNotFound)
}
