package app_test

import (
	"slices"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
)

// TestTaskClaim follows one claim through its life on the test clock: taken,
// refused to another while it holds, renewed, expired, taken over, released.
func TestTaskClaim(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ann := f.person("ann", app.RoleMember)
	bot := f.agent("bot", "ann")
	viewer := f.person("vera", app.RoleViewer)
	tk := f.task(f.admin, app.TaskCreate{Title: "Shared"})
	r := ref(tk.Ref)

	got := must(f.svc.ClaimTask(f.ctx, ann, "", r, nil))(t)
	wantExp := storetest.Epoch.Add(30 * time.Minute) // the default lease
	if got.ClaimedBy != "ann" || !got.ClaimedAt.Equal(storetest.Epoch) || !got.ClaimExpiresAt.Equal(wantExp) || got.ClaimedByIsAgent {
		t.Fatalf("claimed: by %q at %v until %v", got.ClaimedBy, got.ClaimedAt, got.ClaimExpiresAt)
	}

	_, err := f.svc.ClaimTask(f.ctx, bot, "", r, nil)
	wantCode(t, err, app.CodeClaimHeld)
	if e := app.AsError(err); e.Extra["holder"] != "ann" {
		t.Errorf("the refusal names %v as holder, want ann", e.Extra["holder"])
	}
	_, err = f.svc.ClaimTask(f.ctx, viewer, "", r, nil)
	wantCode(t, err, app.CodeForbidden)

	f.clock.Advance(10 * time.Minute)
	renewed := must(f.svc.ClaimTask(f.ctx, ann, "", r, ptr(60)))(t)
	if !renewed.ClaimedAt.Equal(storetest.Epoch) || !renewed.ClaimExpiresAt.Equal(storetest.Epoch.Add(70*time.Minute)) {
		t.Errorf("renewed: at %v until %v; renewal keeps the first instant", renewed.ClaimedAt, renewed.ClaimExpiresAt)
	}

	f.clock.Advance(59 * time.Minute)
	_, err = f.svc.ClaimTask(f.ctx, bot, "", r, nil)
	wantCode(t, err, app.CodeClaimHeld)
	f.clock.Advance(time.Minute) // the claim has now expired
	taken := must(f.svc.ClaimTask(f.ctx, bot, "", r, ptr(5)))(t)
	if taken.ClaimedBy != "bot" || !taken.ClaimedByIsAgent || taken.ClaimedByAnswersTo != "ann" ||
		!taken.ClaimedAt.Equal(storetest.Epoch.Add(70*time.Minute)) {
		t.Errorf("taken over: by %q (agent %v, answers to %q) at %v", taken.ClaimedBy, taken.ClaimedByIsAgent,
			taken.ClaimedByAnswersTo, taken.ClaimedAt)
	}

	// Anybody who may change the task may release it; releasing what
	// nobody holds changes nothing.
	released := must(f.svc.ReleaseTask(f.ctx, ann, "", r))(t)
	if released.ClaimedBy != "" || released.ClaimExpiresAt != nil {
		t.Errorf("released: %q until %v", released.ClaimedBy, released.ClaimExpiresAt)
	}
	again := must(f.svc.ReleaseTask(f.ctx, ann, "", r))(t)
	if again.Version != released.Version {
		t.Errorf("releasing an unheld task moved the version from %d to %d", released.Version, again.Version)
	}
	_, err = f.svc.ReleaseTask(f.ctx, viewer, "", r)
	wantCode(t, err, app.CodeForbidden)
}

func TestTaskClaimMinutes(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.project(f.admin, app.ProjectCreate{Key: "slow", Settings: map[string]any{"claim_minutes": 120.0}})
	cases := []struct {
		name    string
		project string
		minutes *int
		code    app.Code
		want    time.Duration
	}{
		{"the default", "", nil, "", 30 * time.Minute},
		{"asked for", "", ptr(5), "", 5 * time.Minute},
		{"the project's setting", "slow", nil, "", 120 * time.Minute},
		{"asked for beats the setting", "slow", ptr(1), "", time.Minute},
		{"zero", "", ptr(0), app.CodeValidation, 0},
		{"beyond a week", "", ptr(60*24*7 + 1), app.CodeValidation, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tk := f.on(t).task(f.admin, app.TaskCreate{Title: c.name, Project: c.project})
			got, err := f.svc.ClaimTask(f.ctx, f.admin, "", ref(tk.Ref), c.minutes)
			if wantRefusal(t, err, c.code, "query.minutes") {
				return
			}
			if want := storetest.Epoch.Add(c.want); !got.ClaimExpiresAt.Equal(want) {
				t.Errorf("expires %v, want %v", got.ClaimExpiresAt, want)
			}
		})
	}
}

func TestTaskClaimNext(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ann := f.person("ann", app.RoleMember)
	bob := f.person("bob", app.RoleMember)
	low := f.task(f.admin, app.TaskCreate{Title: "low", Importance: ptr(1)})
	high := f.task(f.admin, app.TaskCreate{Title: "high", Importance: ptr(5)})
	blocked := f.task(f.admin, app.TaskCreate{Title: "blocked", Importance: ptr(5), Urgency: ptr(5)})
	blocker := f.task(f.admin, app.TaskCreate{Title: "blocker", Importance: ptr(1), Assignee: "bob"})
	must(f.svc.AddLinks(f.ctx, f.admin, "", app.LinkSet{Entity: "task", Refs: []string{ref(blocker.Ref)}, LinkType: "blocks",
		Others: []string{ref(blocked.Ref)}}))(t)

	// Highest priority first; a blocked task and one assigned to
	// somebody else are not handed out; each call hands out another.
	var got []int64
	for range 2 {
		tk := must(f.svc.ClaimNextTask(f.ctx, ann, app.NextClaim{}))(t)
		if tk.ClaimedBy != "ann" {
			t.Errorf("#%d handed out claimed by %q", tk.Ref, tk.ClaimedBy)
		}
		got = append(got, tk.Ref)
	}
	if want := []int64{high.Ref, low.Ref}; !slices.Equal(got, want) {
		t.Errorf("handed out %v, want %v", got, want)
	}
	_, err := f.svc.ClaimNextTask(f.ctx, ann, app.NextClaim{})
	wantCode(t, err, app.CodeNothingReady)
	// What ann holds is not free for bob; the blocker is his.
	tk := must(f.svc.ClaimNextTask(f.ctx, bob, app.NextClaim{}))(t)
	if tk.Ref != blocker.Ref {
		t.Errorf("bob got #%d, want #%d", tk.Ref, blocker.Ref)
	}
	_, err = f.svc.ClaimNextTask(f.ctx, bob, app.NextClaim{Minutes: ptr(0)})
	wantCode(t, err, app.CodeValidation)
}
