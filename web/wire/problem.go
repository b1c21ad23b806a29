package wire

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"tend/app"
)

type problemType struct {
	Status int
	Title  string
}

// problemTypes is the one table that maps app codes to HTTP.
// TestProblemTypesCoverAllCodes keeps it complete.
var problemTypes = map[app.Code]problemType{
	app.CodeInvalid:               {http.StatusBadRequest, "Malformed request"},
	app.CodeValidation:            {http.StatusUnprocessableEntity, "Validation failed"},
	app.CodeUnauthorized:          {http.StatusUnauthorized, "Authentication required"},
	app.CodeForbidden:             {http.StatusForbidden, "Not permitted"},
	app.CodeNotFound:              {http.StatusNotFound, "Not found"},
	app.CodeMethodNotAllowed:      {http.StatusMethodNotAllowed, "Method not allowed"},
	app.CodeTooLarge:              {http.StatusRequestEntityTooLarge, "Request body too large"},
	app.CodeConflict:              {http.StatusConflict, "Conflict"},
	app.CodeBusy:                  {http.StatusServiceUnavailable, "Temporarily busy"},
	app.CodeInternal:              {http.StatusInternalServerError, "Internal error"},
	app.CodeTokenScopeWider:       {http.StatusForbidden, "Scopes wider than the issuing credential"},
	app.CodeTokenProjectsWider:    {http.StatusForbidden, "Projects wider than the issuing credential"},
	app.CodeTokenWriteWider:       {http.StatusForbidden, "Writable projects wider than the issuing credential"},
	app.CodeTokenExpiryLater:      {http.StatusForbidden, "Expiry later than the issuing credential"},
	app.CodeTokenWorkspaceWider:   {http.StatusForbidden, "Workspace wider than the issuing credential"},
	app.CodeTokenForOther:         {http.StatusForbidden, "Cannot issue for another account"},
	app.CodeTimezoneNotOwn:        {http.StatusForbidden, "Only the account itself may change its timezone"},
	app.CodeLastAdministrator:     {http.StatusConflict, "Last administrator"},
	app.CodeLastOwner:             {http.StatusConflict, "Last owner"},
	app.CodeAlreadyMember:         {http.StatusConflict, "Already a member"},
	app.CodeCycle:                 {http.StatusConflict, "Would create a cycle"},
	app.CodeSchemaTooNew:          {http.StatusServiceUnavailable, "Database newer than this binary"},
	app.CodeWorkspaceRequired:     {http.StatusUnprocessableEntity, "Workspace required"},
	app.CodeSecretInQuery:         {http.StatusBadRequest, "Secret in query string"},
	app.CodeUnsupportedMediaType:  {http.StatusUnsupportedMediaType, "Unsupported media type"},
	app.CodeAccountInactive:       {http.StatusConflict, "Account inactive"},
	app.CodeBackupUnavailable:     {http.StatusServiceUnavailable, "Backups unavailable"},
	app.CodeVersionConflict:       {http.StatusConflict, "Version changed"},
	app.CodeClaimHeld:             {http.StatusConflict, "Claimed by another"},
	app.CodeInboxProtected:        {http.StatusConflict, "The inbox stays"},
	app.CodeProjectOwnerRow:       {http.StatusConflict, "The owner's row stays"},
	app.CodeLastProjectMember:     {http.StatusConflict, "The last member row stays"},
	app.CodeStatusInUse:           {http.StatusConflict, "Status in use"},
	app.CodeStatusIsDefault:       {http.StatusConflict, "Default status"},
	app.CodeLinkTypeInUse:         {http.StatusConflict, "Link type in use"},
	app.CodeNotCommentAuthor:      {http.StatusForbidden, "Not the comment's author"},
	app.CodeCredentialNarrowed:    {http.StatusForbidden, "The credential is narrowed below this"},
	app.CodeOverLimit:             {http.StatusUnprocessableEntity, "Over a limit"},
	app.CodeInstantOutOfRange:     {http.StatusUnprocessableEntity, "Time out of range"},
	app.CodeNothingReady:          {http.StatusNotFound, "Nothing ready"},
	app.CodeAmbiguous:             {http.StatusConflict, "Ambiguous"},
	app.CodeStorageFull:           {http.StatusInsufficientStorage, "Storage full"},
	app.CodeReadOnly:              {http.StatusServiceUnavailable, "Read-only standby"},
	app.CodeLengthRequired:        {http.StatusBadRequest, "Content-Length required"},
	app.CodeReadsSaturated:        {http.StatusServiceUnavailable, "Too many expensive reads"},
	app.CodeReadOverBudget:        {http.StatusServiceUnavailable, "Read over budget"},
	app.CodeRecurrence:            {http.StatusUnprocessableEntity, "Invalid recurrence rule"},
	app.CodeNotRepeating:          {http.StatusConflict, "Task does not repeat"},
	app.CodeAppliesToRequired:     {http.StatusUnprocessableEntity, "applies_to required"},
	app.CodeAppliesToNotRepeating: {http.StatusUnprocessableEntity, "Task does not repeat"},
	app.CodeCalendarWider:         {http.StatusForbidden, "Feed wider than the credential"},
	app.CodeCalendarUnusable:      {http.StatusConflict, "Feed unusable"},
	app.CodeLoginLinkNarrowed:     {http.StatusForbidden, "A narrowed credential cannot sign in a browser"},
	app.CodeLoginLinkUnusable:     {http.StatusGone, "Sign-in link unusable"},
	app.CodeNotASession:           {http.StatusBadRequest, "Not a browser session"},
	app.CodeCrossOrigin:           {http.StatusForbidden, "Cross-site request refused"},
	app.CodeTokenScopeIncomplete:  {http.StatusUnprocessableEntity, "Scopes leave out what they need"},
	app.CodeNotAMember:            {http.StatusConflict, "Not a member of the workspace"},
	app.CodeTaskClosed:            {http.StatusConflict, "Task is done or cancelled"},
	app.CodeNotInTrash:            {http.StatusConflict, "Not in the trash"},
	app.CodeAuthorizationPending:  {http.StatusBadRequest, "Authorization pending"},
	app.CodeSlowDown:              {http.StatusBadRequest, "Slow down"},
	app.CodeAccessDenied:          {http.StatusBadRequest, "Access denied"},
	app.CodeExpiredToken:          {http.StatusBadRequest, "Device code expired"},
	app.CodeInvalidGrant:          {http.StatusBadRequest, "Device code unknown or used"},
	app.CodeTooManyWaiters:        {http.StatusTooManyRequests, "Too many waits"},
	app.CodeTooManyAttempts:       {http.StatusTooManyRequests, "Too many attempts"},
	app.CodeActionUsed:            {http.StatusGone, "Action link used"},
	app.CodeActionExpired:         {http.StatusGone, "Action link expired"},
	app.CodeInviteUnusable:        {http.StatusGone, "Invite unusable"},
	app.CodeUsernameTaken:         {http.StatusConflict, "Username taken"},
	app.CodePasskeyInvalid:        {http.StatusBadRequest, "Passkey not accepted"},
	app.CodePasskeyNeedsSession:   {http.StatusForbidden, "Passkeys are added from a browser"},
	app.CodePasskeyUnavailable:    {http.StatusConflict, "Passkeys need a secure address"},
	app.CodeTailscaleUnlinked:     {http.StatusUnauthorized, "No account linked to this Tailscale login"},
	app.CodeNotStandby:            {http.StatusConflict, "Not a standby"},
	app.CodePromoteFailed:         {http.StatusConflict, "Promotion refused"},
}

// DeviceAttemptsRetry is the Retry-After of a too_many_attempts answer:
// its bounds count over ten minutes, so a minute frees some of them.
const DeviceAttemptsRetry = "60"

// StorageFullRetry is the Retry-After of a storage_full answer: freeing
// space takes a person, so retrying sooner only adds load.
const StorageFullRetry = "30"

// ProblemTypeBase prefixes every problem type URI. A tag: URI is absolute
// but not dereferenceable, so no client resolves it against the request.
const ProblemTypeBase = "tag:tend,2026:problem/"

// ValidationItem is one member of a 422's detail array: where, what, and the code.
type ValidationItem struct {
	Loc  []string `json:"loc"`
	Msg  string   `json:"msg"`
	Type string   `json:"type"`
}

// Problem is an RFC 9457 problem document with tend's code extension.
type Problem struct {
	Type     string   `json:"type"`
	Title    string   `json:"title"`
	Status   int      `json:"status"`
	Detail   any      `json:"detail,omitempty"`
	Instance string   `json:"instance,omitempty"`
	Code     app.Code `json:"code"`
	// Extra holds the error's extension members (a claim's holder and
	// expiry), written beside the standard ones.
	Extra map[string]any `json:"-"`
}

// MarshalJSON adds the error's extension members (such as a claim's holder
// and expiry) beside the standard ones.
func (p Problem) MarshalJSON() ([]byte, error) {
	type plain Problem
	b, err := json.Marshal(plain(p))
	if err != nil || len(p.Extra) == 0 {
		return b, err
	}
	m := map[string]any{}
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for k, v := range p.Extra {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// NewProblem is the problem document of err: its code, title and status from the one table, and its detail unless internal.
func NewProblem(err error) Problem {
	e := app.AsError(err)
	pt, ok := problemTypes[e.Code]
	if !ok {
		e = &app.Error{Code: app.CodeInternal, Err: err}
		pt = problemTypes[app.CodeInternal]
	}
	p := Problem{Type: ProblemTypeBase + string(e.Code), Title: pt.Title, Status: pt.Status, Code: e.Code, Extra: e.Extra}
	switch {
	case e.Code == app.CodeInternal:
	case pt.Status == http.StatusUnprocessableEntity:
		p.Detail = validationDetail(e)
	default:
		p.Detail = e.Detail
	}
	return p
}

// validationDetail is the HTTPValidationError array; every 422 carries one.
func validationDetail(e *app.Error) []ValidationItem {
	items := []ValidationItem{}
	for _, f := range e.Fields {
		items = append(items, ValidationItem{Loc: f.Loc, Msg: f.Msg, Type: string(e.Code)})
	}
	if len(items) == 0 {
		items = append(items, ValidationItem{Loc: []string{"body"}, Msg: e.Detail, Type: string(e.Code)})
	}
	return items
}

// WriteProblem is the only place that turns an error into an HTTP response.
// Internal errors are logged here, once, with their cause; clients see none of it.
func WriteProblem(log *slog.Logger, w http.ResponseWriter, r *http.Request, err error) {
	p := NewProblem(err)
	p.Instance = RedactURL(r.URL.Path, "") // a feed's secret travels in its path
	if p.Code == app.CodeInternal {
		level := slog.LevelError
		if ClientGone(r) {
			level = slog.LevelDebug
		}
		log.Log(r.Context(), level, "request failed", "method", r.Method, "url", RedactURL(r.URL.Path, r.URL.RawQuery), "err", err)
	}
	switch p.Code {
	case app.CodeBusy, app.CodeReadsSaturated, app.CodeTooManyWaiters:
		w.Header().Set("Retry-After", "1")
	case app.CodeReadOverBudget:
		w.Header().Set("Retry-After", "5")
	case app.CodeTooManyAttempts:
		w.Header().Set("Retry-After", DeviceAttemptsRetry)
	case app.CodeStorageFull:
		w.Header().Set("Retry-After", StorageFullRetry)
	case app.CodeUnauthorized:
		w.Header().Set("WWW-Authenticate", `Bearer realm="tend"`)
	}
	if e := (*app.Error)(nil); errors.As(err, &e) && e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int((e.RetryAfter+time.Second-1)/time.Second)))
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
}

// ClientGone reports whether the client went away before its answer: a
// closed tab's live-update stream, a cancelled call. That is the client's
// doing, not a failure of tend: it is logged at debug level at most, and
// counted with status 499.
func ClientGone(r *http.Request) bool { return errors.Is(r.Context().Err(), context.Canceled) }
