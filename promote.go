package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"tend/cli"
)

func newPromoteCmd() *cobra.Command {
	var server, replica string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "promote",
		Short: "Make a running standby (tend serve --follow) the primary",
		Long: `Ask the standby at --server to become the primary, in its running process
(POST /v1/admin/promote, for an instance administrator's credential, read
from TEND_TOKEN). The standby applies the transaction under way and stops
following, checks the integrity of its copy (and stays a standby if it
fails), starts replicating (to a new generation of the replica it followed,
or to --replica) and from then on takes writes, sends webhooks and
notifications and runs its background work as a primary does.

Promote a standby only once its primary is gone for good: a primary still
running keeps writing to the replica the promoted standby now writes too.
docs/selfhost.md ("A warm standby") walks through a failover.`,
		Example: `  TEND_TOKEN=tend_… tend promote --server http://standby.example.ts.net:8421
  tend promote --server http://127.0.0.1:8422 --replica s3://backups/tend-2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			token := os.Getenv("TEND_TOKEN")
			if token == "" {
				return cli.UsageError{Err: errors.New("tend promote needs an instance administrator's credential in TEND_TOKEN")}
			}
			if err := promote(cmd.Context(), server, token, replica, timeout); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "promoted: %s is the primary and takes writes\n", server)
			return nil
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&server, "server", envOr("TEND_URL", "http://"+cli.DefaultAddr), "the standby's URL (env TEND_URL)")
	fl.StringVar(&replica, "replica", "", "replicate the promoted database here rather than to the replica it followed (the schemes of serve --replica)")
	fl.DurationVar(&timeout, "timeout", time.Minute, "how long to wait for the standby's answer (the integrity check reads the whole file)")
	return cmd
}

// promote asks the standby at server to become the primary.
func promote(ctx context.Context, server, token, replica string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	body := map[string]string{}
	if replica != "" {
		body["replica"] = replica
	}
	buf, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(server, "/")+"/v1/admin/promote", bytes.NewReader(buf))
	if err != nil {
		return cli.UsageError{Err: fmt.Errorf("--server is a URL such as http://127.0.0.1:8421: %w", err)}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("asking %s to promote: %w", server, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 64<<10))
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return cli.DecodeProblem(res.StatusCode, raw, server)
	}
	return nil
}
