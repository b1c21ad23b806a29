package app

import (
	"context"
	"math/rand/v2"
	"time"
)

// WebhookDelivery is one row of the outbox: an event owed to an endpoint.
// Seq orders an endpoint's deliveries and names one in the API.
type WebhookDelivery struct {
	Seq         int64
	WebhookID   string
	WorkspaceID string
	EventSeq    int64
	// State is pending, delivered, failed (every retry spent) or skipped
	// (the creator could not see the event when it was due).
	State     string
	Attempts  int
	DueAt     time.Time
	CreatedAt time.Time
}

// WebhookAttempt is one entry of an endpoint's delivery log.
type WebhookAttempt struct {
	Seq         int64
	DeliverySeq int64
	EventSeq    int64
	At          time.Time
	// Outcome is delivered, retry, failed, disabled or skipped.
	Outcome  string
	Status   int // the receiver's HTTP status; 0 when none came
	Duration time.Duration
	Error    string
	Answer   string // the answer's first WebhookAnswerLogged bytes
}

// WebhookSend is a delivery leased to the worker, with what sending it
// takes: the address, the secrets that sign now, the event as the change
// feed shows it to the endpoint's creator, its changes spelled out, and
// the creator as the reader of the item it happened to.
type WebhookSend struct {
	Delivery WebhookDelivery
	URL      string
	Secrets  []string
	Event    Event
	Changed  []Change
	Reader   Actor
}

// WebhookResult is how one attempt went, reported by the worker.
type WebhookResult struct {
	DeliverySeq int64
	Status      int // 0 when no answer came (refused, timed out, unreachable)
	Duration    time.Duration
	Error       string
	Answer      string
	RetryAfter  time.Duration // the receiver's Retry-After, 0 when none
}

// Retry and give-up policy of the webhook outbox.
var (
	// WebhookRetries are the delays before each retry after a failed
	// attempt; after the last the delivery is given up and the next one
	// proceeds.
	WebhookRetries = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
		10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}
	// WebhookFailingLimit is how long an endpoint may fail without a
	// success before it is disabled.
	WebhookFailingLimit = 5 * 24 * time.Hour
)

// Webhook delivery bounds.
const (
	// WebhookAnswerLogged is how much of an answer the log keeps.
	WebhookAnswerLogged = 1024
	// maxRetryAfter caps a receiver's Retry-After at the longest retry.
	maxRetryAfter = 24 * time.Hour
	// maxReplay bounds the deliveries one replay queues.
	maxReplay = 10000
	// maxSkipsPerLease bounds the unseen deliveries one lease marks skipped.
	maxSkipsPerLease = 1000
	// webhookLogLimit is how many entries of the log one read answers.
	webhookLogLimit = 200
)

type webhookDeliveryTx interface {
	// WebhookHeads lists, for each active endpoint, its oldest pending
	// delivery if it is due at now and not leased, up to limit, oldest first.
	WebhookHeads(ctx context.Context, now time.Time, limit int) ([]WebhookDelivery, error)
	// NextWebhookDue is when the soonest pending head of an active endpoint
	// falls due or its lease runs out; nil when none is pending.
	NextWebhookDue(ctx context.Context) (*time.Time, error)
	LeaseWebhookDelivery(ctx context.Context, seq int64, until time.Time) error
	// ReleaseWebhookLeases ends every lease of a pending delivery.
	ReleaseWebhookLeases(ctx context.Context) error
	WebhookDeliveryBySeq(ctx context.Context, webhookID string, seq int64) (WebhookDelivery, error)
	// SetWebhookDelivery writes a delivery's state, attempts and due time
	// and ends its lease.
	SetWebhookDelivery(ctx context.Context, d WebhookDelivery) error
	InsertWebhookAttempt(ctx context.Context, webhookID string, at WebhookAttempt) error
	// WebhookAttempts reads an endpoint's log, newest first.
	WebhookAttempts(ctx context.Context, webhookID string, limit int) ([]WebhookAttempt, error)
	// QueueWebhookEvent queues one event to an endpoint again, due at.
	QueueWebhookEvent(ctx context.Context, webhookID string, eventSeq int64, at time.Time) (WebhookDelivery, error)
	// QueueWebhookReplay queues to w, due at, its workspace's events from
	// seq since on that its project and patterns match, up to limit.
	QueueWebhookReplay(ctx context.Context, w Webhook, since int64, at time.Time, limit int) (int, error)
}

// WebhookLease records the attempts in done (as WebhookAttempted does
// each), then leases up to limit due deliveries, one per endpoint, for
// lease: long enough for an attempt, short enough that a crash only
// delays the delivery. It is one transaction however many attempts it
// records, so that a worker that reports as it leases takes the writer
// once a round, not twice a delivery. A delivery whose event the
// endpoint's creator may not see now (a deactivated creator, a revoked
// role, an item gone) is skipped and logged, never sent. It also answers
// when the soonest endpoint's next delivery falls due or its lease runs
// out (the zero time when none is pending): nothing else wakes the worker
// for a retry.
func (s *Service) WebhookLease(ctx context.Context, limit int, lease time.Duration, done ...WebhookResult) ([]WebhookSend, time.Time, error) {
	var due bool
	var next time.Time
	// Read first: a write takes the writer from the API's requests, which
	// is not worth it when nothing is due.
	err := s.store.View(ctx, func(tx Tx) error {
		if len(done) > 0 {
			return nil
		}
		// One look at the heads says both whether one is due and when
		// the next falls due: this runs after every commit.
		at, err := tx.NextWebhookDue(ctx)
		if at != nil {
			next = *at
			due = !next.After(tx.Now())
		}
		return err
	})
	if err != nil || (!due && len(done) == 0) {
		return nil, next, err
	}
	var out []WebhookSend
	var disabled bool
	// Leases and attempts are the worker's own bookkeeping and no event:
	// committed past the watch, they wake neither the worker itself nor
	// the change feed's waiters, which would read again and find nothing;
	// a disabled endpoint is an event, and wakes them after.
	err = s.raw.Update(ctx, func(tx Tx) error {
		disabled = false
		for _, r := range done {
			off, err := s.recordAttempt(ctx, tx, r)
			if err != nil {
				return err
			}
			disabled = disabled || off
		}
		var err error
		if out, err = s.leaseHeads(ctx, tx, limit, lease); err != nil {
			return err
		}
		at, err := tx.NextWebhookDue(ctx)
		next = time.Time{}
		if at != nil {
			next = *at
		}
		return err
	})
	if err == nil && disabled {
		s.watch.wake()
	}
	return out, next, err
}

// leaseHeads leases up to limit of the endpoints' next deliveries, marking
// skipped (and logging) those whose event the endpoint's creator may not
// see now, at most maxSkipsPerLease of them.
func (s *Service) leaseHeads(ctx context.Context, tx Tx, limit int, lease time.Duration) ([]WebhookSend, error) {
	var out []WebhookSend
	now := tx.Now()
	for skips := 0; skips < maxSkipsPerLease; {
		heads, err := tx.WebhookHeads(ctx, now, limit-len(out))
		if err != nil || len(heads) == 0 {
			return out, err
		}
		skipped := 0
		for _, d := range heads {
			send, why, err := s.webhookSend(ctx, tx, d)
			if err != nil {
				return nil, err
			}
			if why != "" {
				skipped++
				d.State = "skipped"
				if err := tx.SetWebhookDelivery(ctx, d); err != nil {
					return nil, err
				}
				if err := tx.InsertWebhookAttempt(ctx, d.WebhookID, WebhookAttempt{DeliverySeq: d.Seq, EventSeq: d.EventSeq,
					At: now, Outcome: "skipped", Error: why}); err != nil {
					return nil, err
				}
				continue
			}
			if err := tx.LeaseWebhookDelivery(ctx, d.Seq, now.Add(lease)); err != nil {
				return nil, err
			}
			out = append(out, send)
		}
		// A skip lets its endpoint's next delivery take its place.
		if skipped == 0 || len(out) >= limit {
			return out, nil
		}
		skips += skipped
	}
	return out, nil
}

// WebhookReleaseLeases ends the leases a worker that is gone held, so that
// what it had in flight goes out again at once rather than when the lease
// would run out: the worker calls it as it starts. tend serve runs the one
// worker of a database, so a lease found then is a stopped or killed
// process's; the receiver may have had the delivery already, as it may
// after any crash (delivery is at least once).
func (s *Service) WebhookReleaseLeases(ctx context.Context) error {
	return s.store.Update(ctx, func(tx Tx) error { return tx.ReleaseWebhookLeases(ctx) })
}

// webhookSend prepares d for sending, or says why its endpoint may not
// have it.
func (s *Service) webhookSend(ctx context.Context, tx Tx, d WebhookDelivery) (WebhookSend, string, error) {
	w, err := tx.WebhookByID(ctx, d.WorkspaceID, d.WebhookID)
	if err != nil {
		return WebhookSend{}, "", err
	}
	u, err := tx.UserByID(ctx, w.CreatedBy)
	if err != nil {
		return WebhookSend{}, "", err
	}
	if !u.Active {
		return WebhookSend{}, "not sent: the webhook's creator is deactivated", nil
	}
	reader := Actor{User: u, Interface: "webhook"}
	e, ok, err := visibleEvent(ctx, tx, reader, d.WorkspaceID, d.EventSeq)
	if err != nil || !ok {
		return WebhookSend{}, "not sent: the webhook's creator may not see this event, or it is gone", err
	}
	return WebhookSend{Delivery: d, URL: w.URL, Secrets: w.Secrets(tx.Now()), Event: e, Changed: changed(e.Changes),
		Reader: reader}, "", nil
}

// visibleEvent reads the event at seq as the change feed shows it to a:
// the feed's own filter decides, so a webhook sees exactly what its
// creator's change feed would.
func visibleEvent(ctx context.Context, tx Tx, a Actor, workspaceID string, seq int64) (Event, bool, error) {
	f, _, _, err := feedFilter(ctx, tx, a, FeedQuery{Workspace: workspaceID})
	if err != nil {
		if isRefusal(err) {
			return Event{}, false, nil
		}
		return Event{}, false, err
	}
	f.AfterSeq, f.BeforeSeq, f.Limit = seq-1, seq+1, 1
	es, err := tx.FeedEvents(ctx, f)
	if err != nil || len(es) == 0 || es[0].Seq != seq {
		return Event{}, false, err
	}
	f.redact(&es[0].Event)
	return es[0].Event, true, nil
}

// WebhookAttempted records how an attempt went and what follows: a 2xx
// delivers; 410 Gone disables the endpoint; anything else is retried on
// WebhookRetries (or later, if the receiver's Retry-After says so), and an
// endpoint failing for WebhookFailingLimit is disabled.
func (s *Service) WebhookAttempted(ctx context.Context, r WebhookResult) error {
	return s.store.Update(ctx, func(tx Tx) error {
		_, err := s.recordAttempt(ctx, tx, r)
		return err
	})
}

// recordAttempt is WebhookAttempted inside tx; disabled reports that the
// attempt turned its endpoint off (an event).
func (s *Service) recordAttempt(ctx context.Context, tx Tx, r WebhookResult) (disabled bool, err error) {
	d, err := tx.WebhookDeliveryBySeq(ctx, "", r.DeliverySeq)
	if CodeOf(err) == CodeNotFound {
		return false, nil // the endpoint was deleted meanwhile
	}
	if err != nil {
		return false, err
	}
	w, err := tx.WebhookByID(ctx, d.WorkspaceID, d.WebhookID)
	if err != nil {
		return false, err
	}
	now := tx.Now()
	at := WebhookAttempt{DeliverySeq: d.Seq, EventSeq: d.EventSeq, At: now, Status: r.Status, Duration: r.Duration,
		Error: r.Error, Answer: r.Answer}
	d.Attempts++
	var disable string
	switch {
	case r.Status >= 200 && r.Status < 300:
		at.Outcome, d.State = "delivered", "delivered"
		w.FailingSince = nil
	case r.Status == 410:
		at.Outcome, disable = "disabled", "the receiver answered 410 Gone"
	default:
		if w.FailingSince == nil {
			w.FailingSince = &now
		}
		switch {
		case now.Sub(*w.FailingSince) >= WebhookFailingLimit:
			at.Outcome, disable = "disabled", "every delivery failed for 5 days"
		case d.Attempts > len(WebhookRetries):
			at.Outcome, d.State = "failed", "failed"
		default:
			at.Outcome = "retry"
			d.DueAt = now.Add(max(s.webhookJitter(WebhookRetries[d.Attempts-1]), min(r.RetryAfter, maxRetryAfter)))
		}
	}
	if disable != "" {
		// The delivery stays pending: turned on again, the endpoint
		// resumes from it.
		d.DueAt = now
		w.Active, w.DisabledAt, w.DisabledReason = false, &now, disable
	}
	if err := joinErrors(tx.SetWebhookDelivery(ctx, d), tx.InsertWebhookAttempt(ctx, w.ID, at), tx.UpdateWebhook(ctx, &w)); err != nil {
		return false, err
	}
	if disable != "" {
		return true, recordWebhook(ctx, tx, SystemActor("webhook"), w, "webhook.disabled", map[string]any{"reason": disable})
	}
	return false, nil
}

// webhookJitter spreads a retry's delay so that the deliveries of many
// endpoints failing together do not retry in step.
func (s *Service) webhookJitter(d time.Duration) time.Duration {
	if s.opts.WebhookJitter != nil {
		return s.opts.WebhookJitter(d)
	}
	return d + time.Duration((rand.Float64()-0.5)*0.2*float64(d))
}

// WebhookLog reads an endpoint's delivery log, newest first.
func (s *Service) WebhookLog(ctx context.Context, a Actor, workspace, id string) ([]WebhookAttempt, error) {
	var out []WebhookAttempt
	err := s.store.View(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		w, err := managedWebhook(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		out, err = tx.WebhookAttempts(ctx, w.ID, webhookLogLimit)
		return err
	}))
	return out, err
}

// RedeliverWebhook queues a delivery's event to its endpoint again, at the
// end of its queue; it goes out under the same webhook-id.
func (s *Service) RedeliverWebhook(ctx context.Context, a Actor, workspace, id string, delivery int64) (WebhookDelivery, error) {
	var out WebhookDelivery
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		w, err := managedWebhook(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		d, err := tx.WebhookDeliveryBySeq(ctx, w.ID, delivery)
		if err != nil {
			return notFoundAs(err, "delivery")
		}
		out, err = tx.QueueWebhookEvent(ctx, w.ID, d.EventSeq, tx.Now())
		return err
	}))
	return out, err
}

// WebhookReplay is what a replay queued.
type WebhookReplay struct {
	Queued int
	// More is true when the replay stopped at its limit; replay again from
	// the seq after the last one delivered.
	More bool
}

// ReplayWebhook queues to an endpoint every event from seq since on that
// it matches, in seq order after what it already has queued. Each goes
// through the same check of its creator's sight as any delivery.
func (s *Service) ReplayWebhook(ctx context.Context, a Actor, workspace, id string, since int64) (WebhookReplay, error) {
	if since < 0 {
		return WebhookReplay{}, Invalidf("query.since", "since is a seq, 0 or more")
	}
	var out WebhookReplay
	err := s.store.Update(ctx, withScope(ctx, a, workspace, func(tx Tx, sc *scope) error {
		w, err := managedWebhook(ctx, tx, sc, id)
		if err != nil {
			return err
		}
		n, err := tx.QueueWebhookReplay(ctx, w, since, tx.Now(), maxReplay)
		out = WebhookReplay{Queued: n, More: n == maxReplay}
		return err
	}))
	return out, err
}
