package app

import (
	"context"
)

// BootstrapOptions names what a first start creates.
type BootstrapOptions struct {
	InstanceName  string
	Timezone      string
	AdminUsername string
	WorkspaceSlug string
	WorkspaceName string
	// NoToken skips the administrator's first token, for a first start from
	// a command that issues its own credential and would never show that one.
	NoToken bool
}

// FirstStart is what Bootstrap created, including the administrator's
// credential: the only time its secret is shown.
type FirstStart struct {
	Instance  Instance
	Admin     User
	Workspace Workspace
	Token     IssuedToken
}

func (o *BootstrapOptions) fill() {
	if o.InstanceName == "" {
		o.InstanceName = "tend"
	}
	if o.Timezone == "" {
		o.Timezone = "UTC"
	}
	if o.AdminUsername == "" {
		o.AdminUsername = "admin"
	}
	if o.WorkspaceSlug == "" {
		o.WorkspaceSlug = "default"
	}
	if o.WorkspaceName == "" {
		o.WorkspaceName = "Default"
	}
}

// Bootstrap sets up a database that holds no instance yet: the instance, one
// administrator, a default workspace with the default vocabularies, and an
// API token for the administrator. On a database already set up it does
// nothing and returns nil, so no secret is ever produced twice.
func (s *Service) Bootstrap(ctx context.Context, opts BootstrapOptions) (*FirstStart, error) {
	opts.fill()
	if err := joinErrors(checkTimezone("timezone", opts.Timezone), checkUsername("admin", opts.AdminUsername),
		checkSlug("workspace", opts.WorkspaceSlug)); err != nil {
		return nil, err
	}
	var out *FirstStart
	err := s.store.Update(ctx, func(tx Tx) error {
		if _, err := tx.Instance(ctx); err == nil {
			return nil
		} else if CodeOf(err) != CodeNotFound {
			return err
		}
		now := tx.Now()
		inst := Instance{ID: newID(), Name: opts.InstanceName, Timezone: opts.Timezone, CreatedAt: now, UpdatedAt: now}
		if err := tx.InsertInstance(ctx, &inst); err != nil {
			return err
		}
		sys := SystemActor("cli")
		if err := record(ctx, tx, sys, Event{EntityType: "instance", EntityID: inst.ID, Action: "instance.created",
			Changes: map[string]any{"name": inst.Name, "timezone": inst.Timezone}}); err != nil {
			return err
		}
		admin, err := insertUser(ctx, tx, sys, UserCreate{Username: opts.AdminUsername, IsSuperuser: true})
		if err != nil {
			return err
		}
		ws, err := createWorkspace(ctx, tx, Actor{User: admin, Interface: "cli"},
			WorkspaceCreate{Slug: opts.WorkspaceSlug, Name: opts.WorkspaceName, Timezone: opts.Timezone})
		if err != nil {
			return err
		}
		out = &FirstStart{Instance: inst, Admin: admin, Workspace: ws}
		if opts.NoToken {
			return nil
		}
		acc, err := accessOf(ctx, tx, sys)
		if err != nil {
			return err
		}
		out.Token, err = issueToken(ctx, tx, acc, TokenCreate{Title: "first administrator token", Username: admin.Username})
		return err
	})
	return out, err
}

// LocalToken is what the command line asks for when it issues a credential
// straight on the database file.
type LocalToken struct {
	TokenCreate
	// AgentOf makes a new account a service account answering to this username.
	AgentOf string
}

// IssueLocalToken issues a credential with the authority of whoever can open
// the database file. A missing account is created (a service account when
// AgentOf is set) and joins the pinned workspace, or the oldest live one, so
// the credential can do something at once: a person as a member, an agent
// as the agent of its person (see workerIn). An account that exists keeps
// whom it answers to: AgentOf naming somebody else is refused, naming both.
// With no username the credential is for the oldest active administrator.
func (s *Service) IssueLocalToken(ctx context.Context, in LocalToken) (IssuedToken, error) {
	if err := s.validateTokenCreate(&in.TokenCreate); err != nil {
		return IssuedToken{}, err
	}
	in.AnswersTo = in.AgentOf
	var out IssuedToken
	err := s.store.Update(ctx, withAccess(ctx, SystemActor("cli"), func(tx Tx, acc *access) (err error) {
		if in.Username == "" {
			if in.AgentOf != "" {
				return Invalidf("body.username", "name the agent with --user")
			}
			admin, err := oldestAdministrator(ctx, tx)
			if err != nil {
				return err
			}
			in.Username = admin.Username
		} else if err := ensureLocalAccount(ctx, tx, acc, in); err != nil {
			return err
		}
		out, err = issueToken(ctx, tx, acc, in.TokenCreate)
		return err
	}))
	return out, err
}

func oldestAdministrator(ctx context.Context, tx Tx) (User, error) {
	us, err := tx.Users(ctx, UserFilter{})
	if err != nil {
		return User{}, err
	}
	for _, u := range us {
		if u.IsSuperuser && u.Active && !u.IsServiceAccount {
			return u, nil
		}
	}
	return User{}, Errorf(CodeNotFound, "no active administrator; name an account with --user")
}

func ensureLocalAccount(ctx context.Context, tx Tx, acc *access, in LocalToken) error {
	if _, err := tx.UserByName(ctx, in.Username); CodeOf(err) != CodeNotFound {
		return err
	}
	u, err := insertUser(ctx, tx, acc.actor, UserCreate{Username: in.Username, IsServiceAccount: in.AgentOf != "", AnswersTo: in.AgentOf})
	if err != nil {
		return err
	}
	var w Workspace
	if in.Workspace.Set && !in.Workspace.Null && in.Workspace.Value != "" {
		if w, err = workspaceByRef(ctx, tx, in.Workspace.Value); err != nil {
			return bodyRef(err, "body.workspace", "no such workspace")
		}
	} else {
		all, err := tx.InstanceWorkspaces(ctx)
		if err != nil {
			return err
		}
		for _, x := range all {
			if x.DeletedAt == nil {
				w = x.Workspace
				break
			}
		}
	}
	if w.ID == "" {
		return nil
	}
	if u.IsServiceAccount {
		return workerIn(ctx, tx, acc, u, w.ID)
	}
	if err := tx.InsertMember(ctx, &Member{WorkspaceID: w.ID, UserID: u.ID, Role: RoleMember, CreatedAt: tx.Now()}); err != nil {
		return err
	}
	return record(ctx, tx, acc.actor, Event{WorkspaceID: w.ID, EntityType: "workspace", EntityID: w.ID, Action: "member.added",
		SubjectType: "user", SubjectID: u.ID, Changes: map[string]any{"username": u.Username, "role": RoleMember}})
}
