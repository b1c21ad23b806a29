package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/spf13/cobra"

	"tend/cli"
)

func newHealthcheckCmd() *cobra.Command {
	var addr string
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "healthcheck",
		Short: "Exit 0 if the server at --addr is ready, 1 if not",
		Long: `Ask a running tend serve whether it can serve (GET /readyz: the database
answers and has room for writes). It prints what the server answered and
exits 0 when it is ready, 1 when it is not or does not answer in time.

It is the container image's HEALTHCHECK (the image holds nothing but tend,
so there is no curl to call), and works for any supervisor. It reads the
same TEND_ADDR as serve; a server listening on every interface (0.0.0.0,
[::] or a bare :PORT) is asked on loopback.`,
		Example: `  tend healthcheck
  tend healthcheck --addr 127.0.0.1:8421 --timeout 2s`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			target, err := probeAddr(addr)
			if err != nil {
				return err
			}
			status, err := probeReady(cmd.Context(), target, timeout)
			if err != nil {
				return err
			}
			fmt.Fprintln(cmd.OutOrStdout(), status)
			return nil
		},
	}
	cmd.Flags().StringVar(&addr, "addr", envOr("TEND_ADDR", "127.0.0.1:8421"), "address the server listens on (env TEND_ADDR)")
	cmd.Flags().DurationVar(&timeout, "timeout", 5*time.Second, "how long to wait for the answer")
	return cmd
}

// probeAddr is where to reach a server listening on addr: the address
// itself, or loopback when addr names every interface.
func probeAddr(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", cli.UsageError{Err: fmt.Errorf("--addr is HOST:PORT: %w", err)}
	}
	if ip := net.ParseIP(host); host == "" || (ip != nil && ip.IsUnspecified()) {
		host = "127.0.0.1"
		if ip != nil && ip.To4() == nil {
			host = "::1"
		}
	}
	return net.JoinHostPort(host, port), nil
}

// probeReady asks GET /readyz at addr and returns the status the server
// reported ("ready"), or an error saying why it is not ready.
func probeReady(ctx context.Context, addr string, timeout time.Duration) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/readyz", nil)
	if err != nil {
		return "", err
	}
	c := &http.Client{Transport: &http.Transport{DisableKeepAlives: true, Proxy: nil}}
	res, err := c.Do(req)
	if err != nil {
		return "", fmt.Errorf("not ready: %w", err)
	}
	defer res.Body.Close()
	var body struct {
		Status string `json:"status"`
		Code   string `json:"code"`
	}
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 4<<10))
	_ = json.Unmarshal(raw, &body)
	if res.StatusCode != http.StatusOK || body.Status != "ready" {
		if body.Code != "" {
			return "", fmt.Errorf("not ready: %s %s (%s)", res.Status, body.Status, body.Code)
		}
		return "", fmt.Errorf("not ready: %s %s", res.Status, body.Status)
	}
	return body.Status, nil
}
