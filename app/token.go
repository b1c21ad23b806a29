package app

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"strings"
	"time"

	"github.com/google/uuid"
)

// Token is a stored credential. Only the SHA-256 of its secret is kept; the
// public Prefix begins the secret, so a leaked secret can be traced to its
// record and a record can be addressed without the secret.
type Token struct {
	ID                    string
	UserID                string
	Username              string
	IssuedByID            string
	IssuedBy              string
	IssuedByTokenID       string
	Prefix                string
	Hash                  []byte
	Kind                  string
	Title                 string
	Scopes                []string
	WorkspaceID           string
	ProjectScope          []string // nil: every project the account can see
	ProjectScopeKeys      []string
	ProjectWriteScope     []string // nil: every project it may read
	ProjectWriteScopeKeys []string
	ExpiresAt             *time.Time
	LastUsedAt            *time.Time
	RevokedAt             *time.Time
	CreatedAt             time.Time
}

// TokenKindAPI is the kind of a credential issued as an API token.
const TokenKindAPI = "api_token"

// Usable reports whether the credential can still authenticate at now.
func (t Token) Usable(now time.Time) bool {
	return t.RevokedAt == nil && (t.ExpiresAt == nil || now.Before(*t.ExpiresAt))
}

// Narrows reports whether the credential holds less than its account: fewer
// scopes, one workspace, or a subset of projects.
func (t Token) Narrows() bool {
	return !has(t.Scopes, ScopeAll) || t.WorkspaceID != "" || t.ProjectScope != nil || t.ProjectWriteScope != nil
}

// IssuedToken is a credential at the one moment its secret exists in readable form.
type IssuedToken struct {
	Token
	Secret         string
	AccountCreated bool
}

type tokenTx interface {
	InsertToken(ctx context.Context, t *Token) error
	TokenByID(ctx context.Context, id string) (Token, error)
	TokenByPrefix(ctx context.Context, prefix string) (Token, error)
	// Tokens lists the credentials the filter selects, newest first.
	Tokens(ctx context.Context, f TokenFilter) ([]Token, error)
	RevokeToken(ctx context.Context, id string, at time.Time) error
	TouchToken(ctx context.Context, id string, at time.Time) error
}

// TokenFilter selects credentials: all of them, those held or issued by
// the account UserID, or the credential TokenID and those it issued.
type TokenFilter struct {
	All     bool
	UserID  string
	TokenID string
}

// Matches reports whether the filter selects t.
func (f TokenFilter) Matches(t Token) bool {
	switch {
	case f.All:
		return true
	case f.UserID != "":
		return t.UserID == f.UserID || t.IssuedByID == f.UserID
	}
	return f.TokenID != "" && (t.ID == f.TokenID || t.IssuedByTokenID == f.TokenID)
}

// tokenReach is which credentials the caller may list and revoke: with
// credential:manage, every one of its account (of the instance, with
// instance:admin as well); without it, only the credential presented and
// those it issued, so a narrowed credential cannot lock its person out.
func tokenReach(acc *access) TokenFilter {
	a := acc.actor
	switch {
	case a.system || (acc.can(PermCredentialManage) && acc.can(PermInstanceAdmin)):
		return TokenFilter{All: true}
	case acc.can(PermCredentialManage):
		return TokenFilter{UserID: a.User.ID}
	}
	return TokenFilter{TokenID: a.tokenID()}
}

// TokenCreate is a credential to issue (POST /v1/tokens). Unset fields
// inherit from the issuing credential; null asks for "no limit" on that
// axis, which a limited issuer cannot grant.
type TokenCreate struct {
	Title             string
	Scopes            []string
	ExpiresAt         Patch[time.Time]
	Workspace         Patch[string]
	ProjectScope      Patch[[]string]
	ProjectWriteScope Patch[[]string]
	Username          string
	AnswersTo         string
}

// The secret's shape: "tend_" and ten base32 characters make the public
// prefix; an underscore and 40 more (200 random bits) make it secret.
const (
	tokenPrefixLead = "tend_"
	prefixLength    = len(tokenPrefixLead) + 10
	secretLength    = prefixLength + 1 + 40
	base32Lower     = "abcdefghijklmnopqrstuvwxyz234567"
)

func randomBase32(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails on supported platforms
	for i := range b {
		b[i] = base32Lower[b[i]&31]
	}
	return string(b)
}

func newSecret() (prefix, secret string, hash []byte) {
	prefix = tokenPrefixLead + randomBase32(10)
	secret = prefix + "_" + randomBase32(secretLength-prefixLength-1)
	return prefix, secret, secretHash(secret)
}

// secretHash is what is stored of a secret.
func secretHash(secret string) []byte {
	sum := sha256.Sum256([]byte(secret))
	return sum[:]
}

func (s *Service) validateTokenCreate(in *TokenCreate) error {
	if in.Title == "" {
		in.Title = "token"
	}
	if err := joinErrors(checkCount("body.scopes", len(in.Scopes), s.limits.MaxCredentialScopes, "max_credential_scopes"),
		checkCount("body.project_scope", len(in.ProjectScope.Value), s.limits.MaxScopeProjects, "max_scope_projects"),
		checkCount("body.project_write_scope", len(in.ProjectWriteScope.Value), s.limits.MaxScopeProjects, "max_scope_projects")); err != nil {
		return err
	}
	errs := []error{s.checkTitle("body.title", in.Title), checkPatchInstant("body.expires_at", in.ExpiresAt)}
	known := true
	for _, sc := range in.Scopes {
		if sc != ScopeAll && !isPermission(sc) {
			known = false
			errs = append(errs, Invalidf("body.scopes", "unknown scope %q; scopes are %v", sc, ScopeNames()))
		}
	}
	if in.Scopes != nil && len(in.Scopes) == 0 {
		errs = append(errs, Invalidf("body.scopes", "a credential needs at least one scope"))
	}
	if in.Username != "" {
		errs = append(errs, checkUsername("body.username", in.Username))
	}
	if err := joinErrors(errs...); err != nil || !known {
		return err
	}
	return checkScopeNeeds(in.Scopes)
}

// checkScopeNeeds refuses scopes that leave out a permission they cannot be
// used without (Permission.Needs): item:read without project:read would
// issue a credential that sees no project, so no item, and says nothing.
func checkScopeNeeds(scopes []string) error {
	missing := missingNeeds(scopes)
	if len(missing) == 0 {
		return nil
	}
	var parts []string
	for _, m := range missing {
		var by []string
		for _, p := range Permissions {
			if has(scopes, p.Name) && has(p.Needs, m) {
				by = append(by, p.Name)
			}
		}
		verb := " needs "
		if len(by) > 1 {
			verb = " need "
		}
		parts = append(parts, strings.Join(by, " and ")+verb+m)
	}
	return FieldErrorf(CodeTokenScopeIncomplete, "body.scopes",
		"%s (items are reached through the projects that hold them, and nothing is changed that cannot be read); add %q to scopes",
		strings.Join(parts, "; "), strings.Join(missing, `", "`))
}

// CreateToken issues a credential for the caller or, with
// instance:user_create, for another account. It never grants more than the
// credential that asks: not more scopes, projects, writable projects, time,
// or workspaces.
func (s *Service) CreateToken(ctx context.Context, a Actor, in TokenCreate) (IssuedToken, error) {
	if err := s.validateTokenCreate(&in); err != nil {
		return IssuedToken{}, err
	}
	var out IssuedToken
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		out, err = issueToken(ctx, tx, acc, in)
		return err
	}))
	return out, err
}

func issueToken(ctx context.Context, tx Tx, acc *access, in TokenCreate) (IssuedToken, error) {
	target, created, err := tokenAccount(ctx, tx, acc, in)
	if err != nil {
		return IssuedToken{}, err
	}
	issuer := acc.actor.Token
	t := Token{ID: newID(), UserID: target.ID, Username: target.Username, Kind: TokenKindAPI, Title: in.Title, CreatedAt: tx.Now()}
	if !acc.actor.system {
		t.IssuedByID, t.IssuedBy, t.IssuedByTokenID = acc.actor.User.ID, acc.actor.User.Username, acc.actor.tokenID()
	}
	if t.Scopes, err = grantScopes(issuer, in.Scopes); err != nil {
		return IssuedToken{}, err
	}
	if t.ExpiresAt, err = grantExpiry(issuer, in.ExpiresAt, tx.Now()); err != nil {
		return IssuedToken{}, err
	}
	if t.WorkspaceID, err = grantWorkspace(ctx, tx, acc, in.Workspace); err != nil {
		return IssuedToken{}, err
	}
	if t.WorkspaceID != "" {
		if err := workerIn(ctx, tx, acc, target, t.WorkspaceID); err != nil {
			return IssuedToken{}, err
		}
	}
	if err := grantProjects(ctx, tx, acc, &t, in); err != nil {
		return IssuedToken{}, err
	}
	prefix, secret, hash := newSecret()
	t.Prefix, t.Hash = prefix, hash
	if err := tx.InsertToken(ctx, &t); err != nil {
		return IssuedToken{}, err
	}
	if err := record(ctx, tx, acc.actor, Event{EntityType: "token", EntityID: t.ID, Action: "token.issued",
		Changes: map[string]any{"prefix": t.Prefix, "username": t.Username, "scopes": t.Scopes}}); err != nil {
		return IssuedToken{}, err
	}
	stored, err := tx.TokenByID(ctx, t.ID)
	return IssuedToken{Token: stored, Secret: secret, AccountCreated: created}, err
}

// tokenAccount resolves whom a credential is for, creating a service account
// when the name is new and answers_to names its responsible account.
func tokenAccount(ctx context.Context, tx Tx, acc *access, in TokenCreate) (User, bool, error) {
	a := acc.actor
	if in.Username == "" || (!a.system && strings.EqualFold(in.Username, a.User.Username)) {
		if a.system {
			return User{}, false, Invalidf("body.username", "name the account the credential is for")
		}
		if in.AnswersTo != "" {
			return User{}, false, Invalidf("body.answers_to", "answers_to only applies when creating an account")
		}
		return a.User, false, nil
	}
	if !acc.can(PermUserCreate) {
		return User{}, false, Errorf(CodeTokenForOther, "issuing a credential for another account needs %s", PermUserCreate)
	}
	u, err := tx.UserByName(ctx, in.Username)
	switch {
	case err == nil:
		if in.AnswersTo != "" && !strings.EqualFold(in.AnswersTo, u.AnswersTo) {
			return User{}, false, answersElsewhere(u, in.AnswersTo)
		}
		if !u.Active {
			return User{}, false, FieldErrorf(CodeAccountInactive, "body.username", "%s is deactivated", u.Username)
		}
		return u, false, nil
	case CodeOf(err) != CodeNotFound:
		return User{}, false, err
	case in.AnswersTo == "":
		return User{}, false, Invalidf("body.username", "no such account; send answers_to to create it as a service account")
	}
	u, err = insertUser(ctx, tx, a, UserCreate{Username: in.Username, IsServiceAccount: true, AnswersTo: in.AnswersTo})
	return u, err == nil, err
}

// answersElsewhere refuses making an existing account the agent of want
// when it is not: answers_to only creates; handing over is PATCH /v1/users.
func answersElsewhere(u User, want string) error {
	if !u.IsServiceAccount {
		return Invalidf("body.answers_to", "%s exists already and is a person, not an agent; it cannot answer to %s", u.Username, want)
	}
	return Invalidf("body.answers_to", "%s exists already and answers to %s, not %s; hand it over with PATCH /v1/users/%s {\"answers_to\": %q}",
		u.Username, u.AnswersTo, want, u.Username, want)
}

// Tokens lists the credentials the caller may see (see tokenReach), newest
// first. Never a secret.
func (s *Service) Tokens(ctx context.Context, a Actor) ([]Token, error) {
	var out []Token
	err := s.store.View(ctx, withAccess(ctx, a, func(tx Tx, acc *access) (err error) {
		out, err = tx.Tokens(ctx, tokenReach(acc))
		return err
	}))
	return out, err
}

// RevokeToken revokes a credential by id or prefix and returns it, with
// every calendar feed it created: a feed is a grant the credential made and
// never outlives it, as it never outlives its expiry. Revoking one already
// revoked keeps the first revocation time and is not an error; one beyond
// the caller's reach answers like one that does not exist.
func (s *Service) RevokeToken(ctx context.Context, a Actor, idOrPrefix string) (Token, error) {
	var out Token
	err := s.store.Update(ctx, withAccess(ctx, a, func(tx Tx, acc *access) error {
		t, err := tokenByRef(ctx, tx, idOrPrefix)
		if err != nil {
			return err
		}
		if !tokenReach(acc).Matches(t) {
			return NotFound("credential")
		}
		if t.RevokedAt == nil {
			if err := tx.RevokeToken(ctx, t.ID, tx.Now()); err != nil {
				return err
			}
			if err := record(ctx, tx, a, Event{EntityType: "token", EntityID: t.ID, Action: "token.revoked",
				Changes: map[string]any{"prefix": t.Prefix, "username": t.Username}}); err != nil {
				return err
			}
			if err := revokeFeedsOf(ctx, tx, a, t.ID); err != nil {
				return err
			}
		}
		out, err = tx.TokenByID(ctx, t.ID)
		return err
	}))
	return out, err
}

func tokenByRef(ctx context.Context, tx Tx, idOrPrefix string) (Token, error) {
	var t Token
	var err error
	if _, perr := uuid.Parse(idOrPrefix); perr == nil {
		t, err = tx.TokenByID(ctx, idOrPrefix)
	} else {
		t, err = tx.TokenByPrefix(ctx, idOrPrefix)
	}
	if CodeOf(err) == CodeNotFound {
		return Token{}, NotFound("credential")
	}
	return t, err
}
