package app

import (
	"errors"
	"fmt"
	"time"
)

// Code is a stable, machine-readable error identifier. Codes are public API:
// they appear in problem documents, MCP tool errors and CLI output. Never
// rename or reuse one; append new codes to AllCodes.
type Code string

// The error codes. Each refusal a client may act on differently has its own.
const (
	CodeInvalid          Code = "invalid"            // malformed input (bad JSON, bad parameter)
	CodeValidation       Code = "validation"         // well-formed input that breaks a rule; see Error.Fields
	CodeUnauthorized     Code = "unauthorized"       // missing, unknown, expired or revoked credential
	CodeForbidden        Code = "forbidden"          // the caller sees the thing but may not do this to it
	CodeNotFound         Code = "not_found"          // absent, or present but not visible to the caller
	CodeMethodNotAllowed Code = "method_not_allowed" // the path exists, the method does not
	CodeTooLarge         Code = "too_large"          // request body over the limit
	CodeConflict         Code = "conflict"           // uniqueness or state conflict
	CodeBusy             Code = "busy"               // database stayed locked past busy_timeout
	CodeInternal         Code = "internal"           // anything else; details are logged, not shown

	CodeTokenScopeWider       Code = "token_scope_wider"          // requested scopes the issuer lacks
	CodeTokenProjectsWider    Code = "token_projects_wider"       // a wider set of readable projects
	CodeTokenWriteWider       Code = "token_write_projects_wider" // a wider set of writable projects
	CodeTokenExpiryLater      Code = "token_expiry_later"         // expires after the issuing credential
	CodeTokenWorkspaceWider   Code = "token_workspace_wider"      // unpinned or pinned elsewhere while the issuer is pinned
	CodeTokenForOther         Code = "token_for_other_account"    // another account without instance:user_create
	CodeTimezoneNotOwn        Code = "timezone_not_own"           // only an account may change its own timezone
	CodeLastAdministrator     Code = "last_administrator"         // the last active administrator cannot be deactivated
	CodeLastOwner             Code = "last_owner"                 // a workspace keeps at least one owner
	CodeAlreadyMember         Code = "already_member"             // Join for somebody who is a member already
	CodeCycle                 Code = "cycle"                      // the change would make something its own ancestor
	CodeSchemaTooNew          Code = "schema_too_new"             // the database was written by a newer tend
	CodeWorkspaceRequired     Code = "workspace_required"         // several workspaces reachable and none named
	CodeSecretInQuery         Code = "secret_in_query"            // a credential sent in the query string
	CodeUnsupportedMediaType  Code = "unsupported_media_type"     // body that is not JSON
	CodeAccountInactive       Code = "account_inactive"           // acting for or handing work to an inactive account
	CodeBackupUnavailable     Code = "backup_unavailable"         // no backup directory could be used
	CodeVersionConflict       Code = "version_conflict"           // expected_version is stale
	CodeClaimHeld             Code = "claim_held"                 // another account holds an unexpired claim
	CodeInboxProtected        Code = "inbox_protected"            // the inbox cannot be trashed
	CodeProjectOwnerRow       Code = "project_owner_row"          // the owner's project member row stays
	CodeLastProjectMember     Code = "last_project_member"        // a project keeps at least one member row
	CodeStatusInUse           Code = "status_in_use"              // items are in the status
	CodeStatusIsDefault       Code = "status_is_default"          // the default status cannot be removed
	CodeLinkTypeInUse         Code = "link_type_in_use"           // links use the type
	CodeNotCommentAuthor      Code = "not_comment_author"         // only a comment's author may change it
	CodeCredentialNarrowed    Code = "credential_narrowed"        // the account could, but the credential presented lacks the scope
	CodeOverLimit             Code = "over_limit"                 // a list or text in the request is longer than a named limit
	CodeInstantOutOfRange     Code = "instant_out_of_range"       // a time outside the years tend stores
	CodeNothingReady          Code = "nothing_ready"              // no ready task to hand out for next
	CodeAmbiguous             Code = "ambiguous"                  // words match several things; name one more exactly
	CodeStorageFull           Code = "storage_full"               // no room left on the disk for a write
	CodeLengthRequired        Code = "length_required"            // a request body sent without a Content-Length (chunked)
	CodeReadsSaturated        Code = "reads_saturated"            // every slot for expensive reads is taken; retry shortly
	CodeReadOverBudget        Code = "read_over_budget"           // an expensive read ran past its time budget; narrow it
	CodeRecurrence            Code = "recurrence"                 // a repeat phrase or rule that does not parse
	CodeNotRepeating          Code = "not_repeating"              // skip or occurrences of a task that does not repeat
	CodeAppliesToRequired     Code = "applies_to_required"        // a change to a repeating task's series fields without applies_to
	CodeAppliesToNotRepeating Code = "applies_to_not_repeating"   // applies_to sent for a task that does not repeat
	CodeCalendarWider         Code = "calendar_wider"             // a feed would reach beyond the credential creating it
	CodeCalendarUnusable      Code = "calendar_unusable"          // resetting a feed that answers nothing (revoked, expired, owner away)
	CodeLoginLinkNarrowed     Code = "login_link_narrowed"        // a narrowed credential cannot mint a browser session
	CodeLoginLinkUnusable     Code = "login_link_unusable"        // the sign-in link is unknown, spent, expired or revoked
	CodeNotASession           Code = "not_a_session"              // DELETE /v1/session with a token rather than a session
	CodeCrossOrigin           Code = "cross_origin"               // a cookie-authenticated write from another site
	CodeTokenScopeIncomplete  Code = "token_scope_incomplete"     // scopes that leave out a permission they need (item:read without project:read)
	CodeNotAMember            Code = "not_a_member"               // a credential pinned to a workspace its account (or the person it answers to) is not a member of
	CodeTaskClosed            Code = "task_closed"                // claiming a task that is done or cancelled
	CodeNotInTrash            Code = "not_in_trash"               // deleting forever an item that is not in the trash
	// RFC 8628's answers to a terminal polling for its credential (tend login --browser).
	CodeAuthorizationPending Code = "authorization_pending" // nobody has approved or denied the device code yet
	CodeSlowDown             Code = "slow_down"             // polled sooner than the interval; the interval grows by 5 s
	CodeAccessDenied         Code = "access_denied"         // the person denied the request
	CodeExpiredToken         Code = "expired_token"         // the device code is past its ten minutes
	CodeInvalidGrant         Code = "invalid_grant"         // a device code that is unknown, or spent already
	CodeTooManyWaiters       Code = "too_many_waiters"      // the credential holds as many waits on the change feed open as it may
	CodeTooManyAttempts      Code = "too_many_attempts"     // too many wrong sign-in codes tried, or sign-ins started from one address
	CodeActionUsed           Code = "action_used"           // a notification's action link was used already
	CodeActionExpired        Code = "action_expired"        // a notification's action link is past its life
	CodeInviteUnusable       Code = "invite_unusable"       // the invite is unknown, expired, revoked or used up
	CodeUsernameTaken        Code = "username_taken"        // joining by an invite with a username somebody has
	CodePasskeyInvalid       Code = "passkey_invalid"       // a passkey ceremony failed: unknown, spent or expired challenge, bad signature, wrong origin
	CodePasskeyNeedsSession  Code = "passkey_needs_session" // adding a passkey with a token rather than a browser session
	CodePasskeyUnavailable   Code = "passkey_unavailable"   // tend is not at an address passkeys work at (https or localhost)
	CodeTailscaleUnlinked    Code = "tailscale_unlinked"    // Tailscale vouched for a login no active account is linked to
	CodeReadOnly             Code = "read_only"             // a write sent to a standby that follows the primary
	CodeNotStandby           Code = "not_standby"           // promote asked of a server that follows no primary
	CodePromoteFailed        Code = "promote_failed"        // the standby's copy failed its integrity check: it stays a standby
)

// AllCodes lists every code in the order it was added. GET /v1/meta reports it
// as error_codes, and the web package's completeness test walks it.
var AllCodes = []Code{
	CodeInvalid, CodeValidation, CodeUnauthorized, CodeForbidden, CodeNotFound,
	CodeMethodNotAllowed, CodeTooLarge, CodeConflict, CodeBusy, CodeInternal,
	CodeTokenScopeWider, CodeTokenProjectsWider, CodeTokenWriteWider, CodeTokenExpiryLater,
	CodeTokenWorkspaceWider, CodeTokenForOther, CodeTimezoneNotOwn, CodeLastAdministrator,
	CodeLastOwner, CodeAlreadyMember, CodeCycle, CodeSchemaTooNew, CodeWorkspaceRequired,
	CodeSecretInQuery, CodeUnsupportedMediaType, CodeAccountInactive, CodeBackupUnavailable,
	CodeVersionConflict, CodeClaimHeld, CodeInboxProtected, CodeProjectOwnerRow, CodeLastProjectMember,
	CodeStatusInUse, CodeStatusIsDefault, CodeLinkTypeInUse, CodeNotCommentAuthor,
	CodeCredentialNarrowed, CodeOverLimit, CodeInstantOutOfRange,
	CodeNothingReady, CodeAmbiguous,
	CodeStorageFull, CodeLengthRequired, CodeReadsSaturated, CodeReadOverBudget,
	CodeRecurrence, CodeNotRepeating, CodeAppliesToRequired, CodeAppliesToNotRepeating,
	CodeCalendarWider, CodeCalendarUnusable,
	CodeLoginLinkNarrowed, CodeLoginLinkUnusable, CodeNotASession, CodeCrossOrigin,
	CodeTokenScopeIncomplete, CodeNotAMember, CodeTaskClosed, CodeNotInTrash,
	CodeAuthorizationPending, CodeSlowDown, CodeAccessDenied, CodeExpiredToken, CodeInvalidGrant,
	CodeTooManyWaiters, CodeTooManyAttempts, CodeActionUsed, CodeActionExpired,
	CodeInviteUnusable, CodeUsernameTaken,
	CodePasskeyInvalid, CodePasskeyNeedsSession, CodePasskeyUnavailable,
	CodeTailscaleUnlinked,
	CodeReadOnly, CodeNotStandby, CodePromoteFailed,
}

// FieldError names one offending input for a validation problem. Loc follows
// HTTPValidationError: where the value was ("body", "query", "path") and its name.
type FieldError struct {
	Loc []string
	Msg string
}

// Error is the domain error: a stable code, a detail safe to show, optional
// field errors for validation problems, and a cause that is logged, never shown.
type Error struct {
	Code   Code
	Detail string
	Fields []FieldError
	Extra  map[string]any // extension members for the problem document, such as a claim's holder
	// RetryAfter is how long the caller should wait before trying again,
	// when the refusal knows (a rate limit); 0 leaves it to the code.
	RetryAfter time.Duration
	Err        error
}

func (e *Error) Error() string {
	s := string(e.Code)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err != nil && e.Code == CodeInternal {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an *Error with a formatted detail.
func Errorf(code Code, format string, args ...any) error {
	return &Error{Code: code, Detail: fmt.Sprintf(format, args...)}
}

// ReadOnly is the refusal of a write by a standby, which follows the
// primary's replica and writes nothing of its own until promoted. primary is
// the primary's address, named so that the caller can send the write there;
// "" when the standby was not told it.
func ReadOnly(primary string) error {
	if primary == "" {
		return &Error{Code: CodeReadOnly, Detail: "this server is a read-only standby that follows the primary; send writes to the primary (this standby was not told its address)"}
	}
	return &Error{Code: CodeReadOnly, Detail: "this server is a read-only standby that follows the primary; send writes to the primary at " + primary, Extra: map[string]any{"primary": primary}}
}

// Invalidf reports a validation problem with one field. loc is "body.title"
// style: the first segment is where the value was, the rest its path.
func Invalidf(loc string, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: CodeValidation, Detail: msg, Fields: []FieldError{{Loc: splitLoc(loc), Msg: msg}}}
}

// FieldErrorf reports a refusal with its own code that still names the field
// it concerns, so the 422 detail array can point at it.
func FieldErrorf(code Code, loc string, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	return &Error{Code: code, Detail: msg, Fields: []FieldError{{Loc: splitLoc(loc), Msg: msg}}}
}

// Locator names where a request's parameter was written, by its key, for
// the errors that point at it: query.status for GET /v1/tasks?status=,
// arguments.filter.status for a tool's filter object. Each adapter that
// reads parameters from its own place says where they were.
type Locator func(key string) string

// at is where key was written; a nil Locator is a URL's query string.
func (l Locator) at(key string) string {
	if l == nil {
		return "query." + key
	}
	return l(key)
}

func splitLoc(loc string) []string {
	var out []string
	start := 0
	for i := 0; i < len(loc); i++ {
		if loc[i] == '.' {
			out = append(out, loc[start:i])
			start = i + 1
		}
	}
	return append(out, loc[start:])
}

// NotFound is the one answer for anything absent or unseen: the same words
// whichever it was, so the disclosure rule holds.
func NotFound(what string) error {
	return &Error{Code: CodeNotFound, Detail: "no such " + what}
}

// notFoundAs turns the store's not-found into the domain's not-found for
// what, and passes any other error through with its cause: a busy database
// or an I/O error must answer 500 and be logged, not pass for a missing row.
func notFoundAs(err error, what string) error {
	if CodeOf(err) == CodeNotFound {
		return NotFound(what)
	}
	return err
}

// CodeOf returns the code of the first *Error in err's chain, "" for nil,
// and CodeInternal for any other error.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// AsError returns the first *Error in err's chain, or an internal one wrapping err.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return &Error{Code: CodeInternal, Err: err}
}
