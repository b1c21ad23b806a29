package app

import (
	"context"
	"time"

	"tend/app/background"
	"tend/app/outbound"
)

// Store is what the domain needs from storage: transactions, backups and the
// schema revision. store.DB implements it.
type Store interface {
	// View runs fn in a read-only transaction.
	View(ctx context.Context, fn func(Tx) error) error
	// Scan is View for a long read, such as an export, which must hold
	// none of the connections requests read through.
	Scan(ctx context.Context, fn func(Tx) error) error
	// Update runs fn in a write transaction; an error from fn rolls it back.
	Update(ctx context.Context, fn func(Tx) error) error
	// Backup takes a consistent copy of the live database.
	Backup(ctx context.Context, takenFor string, keep int) (Backup, error)
	// Backups lists the copies taken, newest first.
	Backups(ctx context.Context) ([]Backup, error)
	// SchemaRevision names the newest migration applied.
	SchemaRevision() string
	// SearchBackend names the full-text engine behind q.
	SearchBackend() string
	// Credential reads, in one statement, what checking a secret with this
	// prefix needs.
	Credential(ctx context.Context, prefix string) (CredentialCheck, error)
	// SpaceError is the storage_full refusal while writes are refused for
	// want of space, nil otherwise.
	SpaceError() error
	// ReadOnly is the read_only refusal (ReadOnly) while the store follows a
	// primary's replica as a standby, nil otherwise.
	ReadOnly() error
}

// CredentialCheck is a credential, its account, whether everyone up the
// account's chain of responsibility is active, and the store's clock.
type CredentialCheck struct {
	Token       Token
	User        User
	ChainActive bool
	Now         time.Time
}

// Tx is what one transaction can do. Each entity states its part in its own
// file; tests use the real store, never a fake.
type Tx interface {
	// Now is the transaction's clock, fixed for its whole life.
	Now() time.Time
	instanceTx
	userTx
	workspaceTx
	memberTx
	vocabTx
	projectTx
	tokenTx
	sessionTx
	inviteTx
	deviceTx
	passkeyTx
	signedOutTx
	eventTx
	scopeTx
	statusTx
	linkTypeTx
	tagTx
	taskTx
	reminderTx
	linkTx
	historyTx
	mentionTx
	graphTx
	documentTx
	commentTx
	feedTx
	calendarTx
	viewTx
	webhookTx
	channelTx
	notifyTx
	notifyClearTx
	digestTx
	openTasksTx
	exportTx
	importTx
	externalTx
	davTx
	davRepeatTx
	bulkTx
	taskJobTx
	purgeTx
	peopleTx
	background.DocumentIndexTx
	background.TaskIndexTx
}

// Options configures a Service.
type Options struct {
	// Version is the binary's release, reported as instance_version.
	Version string
	// PublicURL is where users reach the instance, if it was configured.
	PublicURL string
	// Limits overrides the built-in limits; zero fields keep the defaults.
	Limits Limits
	// BulkStepRows, when set, fixes how many rows one step of bulk work on
	// a tag removes or reads (bulk.go); 0 sizes the steps by time from
	// DefaultBulkStepRows. Tests set a few to see the work between steps.
	BulkStepRows int
	// SubtreeStepRows is the most descendants a request changes itself
	// (task_job.go), and when set fixes how many one step of a job on a
	// subtree changes; 0 is DefaultSubtreeStepRows, the steps sized by time.
	SubtreeStepRows int
	// StepBudget is the time a step of bulk work aims to hold the writer
	// for (work_step.go); 0 is background.DefaultStepBudget.
	StepBudget time.Duration
	// StepClock times the steps of bulk work; nil is time.Now. Tests
	// replace it to give steps the length they choose.
	StepClock func() time.Time
	// OnWorkStep, when set, hears how long each step of bulk work held the
	// writer, its kind and how many rows it did.
	OnWorkStep func(kind string, rows int, took time.Duration)
	// BeforeWorkStep, when set, is called before each step of bulk work; an
	// error stops the worker there, as a crash would. For tests.
	BeforeWorkStep func() error
	// TaskIndexStepRows, when set, fixes how many tasks one step of
	// indexing task text indexes (task_index.go); 0 sizes the steps by time
	// from app.TaskIndexStepRows.
	TaskIndexStepRows int
	// TaskIndexBatch, when above 0, has the worker index task text
	// (task_index.go): once that many creates wait, at ResumeWork, and
	// whenever it runs. At 0 the worker indexes task text only when a
	// search waits for it (its urgent lane), as a short-lived process and
	// most tests want: no worker outlives them.
	// The server sets DefaultTaskIndexBatch.
	TaskIndexBatch int
	// TaskIndexQuiet, when above 0 with TaskIndexBatch, starts the worker
	// indexing task text that long after the last create; the server sets
	// DefaultTaskIndexQuiet.
	TaskIndexQuiet time.Duration
	// Timer, when set, starts the clock on a wait on the change feed
	// (feed_wait.go) in place of a real timer: tests fire it when they
	// choose rather than let time pass. It returns the channel the end
	// arrives on and a function that stops it.
	Timer func(time.Duration) (<-chan time.Time, func())
	// Outbound is which private and local addresses a webhook may name
	// (tend serve --outbound-allow); the zero Policy allows none.
	Outbound outbound.Policy
	// WebhookJitter spreads a webhook retry's delay (webhook_delivery.go);
	// nil spreads it by up to a tenth either way. Tests fix it.
	WebhookJitter func(time.Duration) time.Duration
	// Passkeys speaks WebAuthn (web/passkeys); without it every passkey
	// ceremony answers passkey_unavailable. The server and the terminal
	// commands hand it in.
	Passkeys Ceremonies
	// Promote, on a standby (a store that follows a primary's replica),
	// makes this process the primary: the store stops following and takes
	// writes, and the work a primary does starts (Service.Promote). The
	// server sets it; without it, Promote answers not_standby.
	Promote func(ctx context.Context, replica string) error
}

// Service is the one entry point to the domain.
type Service struct {
	store  Store
	raw    Store                   // the store unwatched, for steps of bulk work (bulk.go)
	work   *background.Worker      // runs queued work in steps (bulk.go)
	jobs   struct{ plan taskPlan } // the job on a subtree under way (task_job.go); the worker's alone
	steps  stepSizers              // how many rows each kind of step takes (bulk.go)
	opts   Options
	limits Limits
	budget *background.Budget // bounds the expensive reads (readbudget.go)
	watch  *watch             // woken by every committed write (watch.go)
	device deviceLimits       // what the device flow bounds (device.go)
	rates  rateLimits         // the named rate limits (limit.go)
}

// New returns a Service over st.
func New(st Store, opts Options) *Service {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	limits := DefaultLimits.merge(opts.Limits)
	if limits.ExpensiveReads == 0 {
		limits.ExpensiveReads = background.DefaultSlots()
	}
	steps := newStepSizers(opts)
	if opts.BulkStepRows <= 0 {
		opts.BulkStepRows = DefaultBulkStepRows
	}
	if opts.TaskIndexStepRows <= 0 {
		opts.TaskIndexStepRows = TaskIndexStepRows
	}
	if opts.SubtreeStepRows <= 0 {
		opts.SubtreeStepRows = DefaultSubtreeStepRows
	}
	w := newWatch()
	s := &Service{store: watchedStore{Store: st, w: w}, raw: st, watch: w, opts: opts, limits: limits, budget: newBudget(limits),
		device: newDeviceLimits(), steps: steps}
	// The worker indexes task text in its own steps only with a batch
	// (bulkStep); a search needing it done waits for indexTasksStep.
	s.work = background.NewWorker(background.Config{Steps: []background.Step{s.bulkStep, s.taskJobStep},
		Urgent: s.indexTasksStep, BeforeStep: opts.BeforeWorkStep, Batch: opts.TaskIndexBatch, QuietFor: opts.TaskIndexQuiet})
	return s
}

// Limits are the numeric bounds an installation enforces; GET /v1/meta reports them.
type Limits struct {
	DefaultPageSize    int
	MaxPageSize        int
	MaxTitleLength     int
	MaxEstimateMinutes int
	MaxHierarchyDepth  int
	MaxBodyBytes       int
	MaxTreeDepth       int
	DefaultTreeDepth   int
	DefaultClaimMins   int
	MaxClaimMins       int
	GroupLimitDefault  int
	GroupLimitMax      int
	MaxScopeProjects   int
	// Bounds on every list and text a body can carry, so that no single
	// request holds the writer for long (issue 9; BENCHMARKS.md).
	MaxTagsPerItem       int
	MaxTagLength         int
	MaxLinksPerRequest   int
	MaxBulkTasks         int
	MaxCredentialScopes  int
	MaxHiddenStatuses    int
	MaxDescriptionLength int
	MaxMentionsPerText   int
	// ExpensiveReads is how many expensive reads run at once (readbudget.go);
	// 0 takes half the cores, at least one.
	ExpensiveReads int
	// ReadBudgetMillis is how long one expensive read may run.
	ReadBudgetMillis int
	// ReadQueueMillis is how long an expensive read waits for a slot.
	ReadQueueMillis int
	// Calendar feeds (issue 12; docs/calendars.md): at most this many
	// events, dated from CalendarPastDays ago to CalendarFutureDays ahead;
	// finished work stays CalendarDoneDays after completion; clients are
	// asked to poll every CalendarRefreshMinutes.
	CalendarMaxEvents      int
	CalendarPastDays       int
	CalendarFutureDays     int
	CalendarDoneDays       int
	CalendarRefreshMinutes int
	// SearchRankedMatches is how many task matches service_search ranks:
	// when more match, it ranks the newest this many (docs/api.md, "Search").
	SearchRankedMatches int
	// MaxWaitSeconds bounds a wait on the change feed; WaitersPerCredential
	// is how many one credential may hold open at once (feed_wait.go).
	MaxWaitSeconds       int
	WaitersPerCredential int
}

// DefaultLimits are the limits in force unless Options.Limits says otherwise.
var DefaultLimits = Limits{
	DefaultPageSize:    50,
	MaxPageSize:        500,
	MaxTitleLength:     500,
	MaxEstimateMinutes: 60 * 24 * 365,
	MaxHierarchyDepth:  8,
	MaxBodyBytes:       1 << 20,
	MaxTreeDepth:       10,
	DefaultTreeDepth:   3,
	DefaultClaimMins:   30,
	MaxClaimMins:       60 * 24 * 7,
	GroupLimitDefault:  25,
	GroupLimitMax:      100,
	MaxScopeProjects:   200,

	MaxTagsPerItem:       50,
	MaxTagLength:         64,
	MaxLinksPerRequest:   100,
	MaxBulkTasks:         MaxBulkTasks,
	MaxCredentialScopes:  32,
	MaxHiddenStatuses:    50,
	MaxDescriptionLength: 100_000,
	MaxMentionsPerText:   500,
	ReadBudgetMillis:     2000,
	ReadQueueMillis:      1000,

	CalendarMaxEvents:      5000,
	CalendarPastDays:       90,
	CalendarFutureDays:     366,
	CalendarDoneDays:       14,
	CalendarRefreshMinutes: 60,

	SearchRankedMatches: 5000,

	MaxWaitSeconds:       60,
	WaitersPerCredential: 64,
}

func (l Limits) merge(o Limits) Limits {
	pick := func(a, b int) int {
		if b > 0 {
			return b
		}
		return a
	}
	return Limits{
		DefaultPageSize:    pick(l.DefaultPageSize, o.DefaultPageSize),
		MaxPageSize:        pick(l.MaxPageSize, o.MaxPageSize),
		MaxTitleLength:     pick(l.MaxTitleLength, o.MaxTitleLength),
		MaxEstimateMinutes: pick(l.MaxEstimateMinutes, o.MaxEstimateMinutes),
		MaxHierarchyDepth:  pick(l.MaxHierarchyDepth, o.MaxHierarchyDepth),
		MaxBodyBytes:       pick(l.MaxBodyBytes, o.MaxBodyBytes),
		MaxTreeDepth:       pick(l.MaxTreeDepth, o.MaxTreeDepth),
		DefaultTreeDepth:   pick(l.DefaultTreeDepth, o.DefaultTreeDepth),
		DefaultClaimMins:   pick(l.DefaultClaimMins, o.DefaultClaimMins),
		MaxClaimMins:       pick(l.MaxClaimMins, o.MaxClaimMins),
		GroupLimitDefault:  pick(l.GroupLimitDefault, o.GroupLimitDefault),
		GroupLimitMax:      pick(l.GroupLimitMax, o.GroupLimitMax),
		MaxScopeProjects:   pick(l.MaxScopeProjects, o.MaxScopeProjects),

		MaxTagsPerItem:       pick(l.MaxTagsPerItem, o.MaxTagsPerItem),
		MaxTagLength:         pick(l.MaxTagLength, o.MaxTagLength),
		MaxLinksPerRequest:   pick(l.MaxLinksPerRequest, o.MaxLinksPerRequest),
		MaxBulkTasks:         pick(l.MaxBulkTasks, o.MaxBulkTasks),
		MaxCredentialScopes:  pick(l.MaxCredentialScopes, o.MaxCredentialScopes),
		MaxHiddenStatuses:    pick(l.MaxHiddenStatuses, o.MaxHiddenStatuses),
		MaxDescriptionLength: pick(l.MaxDescriptionLength, o.MaxDescriptionLength),
		MaxMentionsPerText:   pick(l.MaxMentionsPerText, o.MaxMentionsPerText),
		ExpensiveReads:       pick(l.ExpensiveReads, o.ExpensiveReads),
		ReadBudgetMillis:     pick(l.ReadBudgetMillis, o.ReadBudgetMillis),
		ReadQueueMillis:      pick(l.ReadQueueMillis, o.ReadQueueMillis),

		CalendarMaxEvents:      pick(l.CalendarMaxEvents, o.CalendarMaxEvents),
		CalendarPastDays:       pick(l.CalendarPastDays, o.CalendarPastDays),
		CalendarFutureDays:     pick(l.CalendarFutureDays, o.CalendarFutureDays),
		CalendarDoneDays:       pick(l.CalendarDoneDays, o.CalendarDoneDays),
		CalendarRefreshMinutes: pick(l.CalendarRefreshMinutes, o.CalendarRefreshMinutes),

		SearchRankedMatches: pick(l.SearchRankedMatches, o.SearchRankedMatches),

		MaxWaitSeconds:       pick(l.MaxWaitSeconds, o.MaxWaitSeconds),
		WaitersPerCredential: pick(l.WaitersPerCredential, o.WaitersPerCredential),
	}
}

// Limits returns the limits in force.
func (s *Service) Limits() Limits { return s.limits }

// Version returns the binary's release string.
func (s *Service) Version() string { return s.opts.Version }

// PublicURL is where users reach the instance, "" when not configured.
func (s *Service) PublicURL() string { return s.opts.PublicURL }

// APIVersion is the version of the /v1 interface this binary speaks.
const APIVersion = "1.0"

// Ready reports whether the instance can serve: the database answers and
// holds an instance, and writes are not being refused for want of space.
func (s *Service) Ready(ctx context.Context) error {
	if err := s.store.SpaceError(); err != nil {
		return err
	}
	return s.store.View(ctx, func(tx Tx) error {
		_, err := tx.Instance(ctx)
		return err
	})
}
