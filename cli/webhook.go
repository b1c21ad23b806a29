package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"tend/app"
	"tend/web/wire"
)

// The webhook commands: one call of /v1/webhooks each (docs/webhooks.md).

func newWebhookCmd(env *Env, dbPath *string) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "webhook",
		Short: "Add, list and remove webhooks; read their log and replay events",
		Long: `A webhook sends the workspace's events, or one project's, to a URL as they
happen, signed per Standard Webhooks (docs/webhooks.md). Workspace owners and
admins manage the workspace's; a project admin manages a project's. An
endpoint receives only what its creator may see. A URL on this machine or a
private network needs tend serve --outbound-allow CIDR (TEND_OUTBOUND_ALLOW).
A webhook is named by its id or its URL.`,
	}
	cmd.AddCommand(newWebhookAddCmd(env, dbPath), newWebhookLsCmd(env, dbPath), newWebhookRmCmd(env, dbPath),
		newWebhookLogCmd(env, dbPath), newWebhookReplayCmd(env, dbPath))
	return cmd
}

func newWebhookAddCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"body.url": "URL", "body.events": "--events", "body.project": "--project", "body.description": "--description"}
	var events []string
	var project, description string
	cmd := w.call(&cobra.Command{
		Use:   "add URL --events PATTERNS",
		Short: "Add a webhook; prints its signing secret, once",
		Long: `Add a webhook that receives the events --events names: "*", a kind such as
"task.*", or actions such as comment.created. The signing secret (whsec_…) is
printed once: keep it where the receiver verifies signatures.`,
		Example:           `  tend webhook add http://127.0.0.1:9000/tend --events 'task.*,comment.created' --description "CI bot"`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
	}, func(ctx context.Context, s *session, args []string) error {
		h, err := s.c.AddWebhook(ctx, wire.WebhookCreate{URL: args[0], Events: events, Project: project, Description: description})
		if err != nil {
			return err
		}
		if s.p.Format == FormatJSON {
			return s.p.JSON(h)
		}
		s.p.line("added %s", strings.Join(webhookLine(h.Webhook), "  "))
		s.p.line("secret %s (shown once)", h.Secret)
		return nil
	})
	fl := cmd.Flags()
	fl.StringSliceVar(&events, "events", nil, `the events to send: "*", "task.*", comment.created, … (comma-separated)`)
	fl.StringVar(&project, "project", "", "only this project's events")
	fl.StringVar(&description, "description", "", "what the webhook is for")
	completeFlags(cmd, w)
	return cmd
}

func newWebhookLsCmd(env *Env, dbPath *string) *cobra.Command {
	return listCmd(newWork(env, dbPath), &cobra.Command{
		Use:     "ls",
		Short:   "The webhooks you manage, never their secrets",
		Example: `  tend webhook ls`,
		Args:    cobra.NoArgs,
	}, Client.Webhooks, linesOf("webhooks", webhookLine))
}

func newWebhookRmCmd(env *Env, dbPath *string) *cobra.Command {
	return webhookByRef(newWork(env, dbPath), "rm ID_OR_URL", "Remove a webhook with its queue and log",
		`  tend webhook rm http://127.0.0.1:9000/tend`,
		func(ctx context.Context, s *session, id string) error {
			h, err := s.c.DeleteWebhook(ctx, id)
			if err != nil {
				return err
			}
			if s.p.Format == FormatJSON {
				return s.p.JSON(h)
			}
			s.p.line("removed %s", strings.Join(webhookLine(h), "  "))
			return nil
		})
}

func newWebhookLogCmd(env *Env, dbPath *string) *cobra.Command {
	return webhookByRef(newWork(env, dbPath), "log ID_OR_URL", "A webhook's delivery log, newest first",
		`  tend webhook log http://127.0.0.1:9000/tend`,
		func(ctx context.Context, s *session, id string) error {
			as, err := s.c.WebhookLog(ctx, id)
			if err != nil {
				return err
			}
			return lines(s.p, as, "deliveries", webhookAttemptLine)
		})
}

// webhookAttemptLine is one attempt of a webhook's delivery log.
func webhookAttemptLine(a wire.WebhookAttempt) []string {
	status, why := "-", ""
	if a.Status != nil {
		status = strconv.Itoa(*a.Status)
	}
	if a.Error != nil {
		why = *a.Error
	}
	return []string{a.At, fmt.Sprintf("delivery %d", a.Delivery), fmt.Sprintf("seq %d", a.EventSeq), a.Outcome, status,
		fmt.Sprintf("%dms", a.DurationMS), why}
}

func newWebhookReplayCmd(env *Env, dbPath *string) *cobra.Command {
	w := newWork(env, dbPath)
	w.names = map[string]string{"query.since": "--since"}
	var since int64
	cmd := webhookByRef(w, "replay ID_OR_URL --since SEQ", "Send a webhook every matching event from seq SEQ on, again",
		`  tend webhook replay http://127.0.0.1:9000/tend --since 1`,
		func(ctx context.Context, s *session, id string) error {
			r, err := s.c.ReplayWebhook(ctx, id, since)
			if err != nil {
				return err
			}
			if s.p.Format == FormatJSON {
				return s.p.JSON(r)
			}
			more := ""
			if r.More {
				more = "; more remain, replay again from the seq after the last one sent"
			}
			s.p.line("queued %d events%s", r.Queued, more)
			return nil
		})
	cmd.Flags().Int64Var(&since, "since", 0, "the seq to replay from (tend watch and the change feed show seqs)")
	_ = cmd.MarkFlagRequired("since")
	return cmd
}

// webhookByRef is a command acting on the one webhook its argument names
// by id or URL.
func webhookByRef(w *work, use, short, example string, act func(ctx context.Context, s *session, id string) error) *cobra.Command {
	return w.call(&cobra.Command{
		Use:               use,
		Short:             short,
		Example:           example,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: cobra.NoFileCompletions,
	}, func(ctx context.Context, s *session, args []string) error {
		id, err := webhookID(ctx, s.c, args[0])
		if err != nil {
			return err
		}
		return act(ctx, s, id)
	})
}

// webhookID is the id of the webhook named by its id or its URL; a URL
// names the first webhook with that address.
func webhookID(ctx context.Context, c Client, idOrURL string) (string, error) {
	if !strings.Contains(idOrURL, "://") {
		return idOrURL, nil
	}
	hs, err := c.Webhooks(ctx)
	if err != nil {
		return "", err
	}
	for _, h := range hs {
		if h.URL == idOrURL {
			return h.ID, nil
		}
	}
	// The same refusal, exit status included, as an id the caller may not
	// see: the server answers not_found to those.
	return "", problemOf(app.Errorf(app.CodeNotFound, "no webhook you manage sends to %s", idOrURL))
}

// webhookLine is a webhook in one line: id, URL, events, project, state.
func webhookLine(h wire.Webhook) []string {
	out := []string{h.ID, h.URL, strings.Join(h.Events, ",")}
	if h.Project != nil {
		out = append(out, "project "+*h.Project)
	}
	if !h.Active {
		out = append(out, "inactive")
	}
	if h.Notice != nil {
		out = append(out, *h.Notice)
	}
	return out
}
