package web_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"tend/web/webtest"
)

// BenchmarkMCPVersusHTTP times the same read through MCP and through the
// HTTP API, each over loopback with keep-alive: the first page of 20
// tasks (service_list vs GET /v1/tasks?limit=20) and one task
// with what surrounds it (service_show vs the five GETs that read the same:
// the task, its links, governing documents, comments and verifications),
// and the list through a go-sdk client in both eras. It reports the
// median (p50-ns) as well as the mean, since the target is on p50.
func BenchmarkMCPVersusHTTP(b *testing.B) {
	svc, secret := benchService(b)
	srv := webtest.Serve(b, svc)
	client := srv.Client()
	for i := range 40 {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/v1/tasks", strings.NewReader(fmt.Sprintf(`{"title":"task %d","importance":3}`, i)))
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", "application/json")
		res, err := client.Do(req)
		if err != nil || res.StatusCode != http.StatusCreated {
			b.Fatalf("seed: %v %v", err, res)
		}
		res.Body.Close()
	}
	httpGet := func(path string) func() error {
		return func() error {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
			req.Header.Set("Authorization", "Bearer "+secret)
			res, err := client.Do(req)
			if err != nil {
				return err
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				return fmt.Errorf("status %d", res.StatusCode)
			}
			return nil
		}
	}
	b.Run("http/list", func(b *testing.B) { timeCalls(b, httpGet("/v1/tasks?limit=20")) })
	b.Run("http/task", func(b *testing.B) { timeCalls(b, httpGet("/v1/tasks/7")) })
	// What service_show answers in one call takes five over HTTP.
	showParts := []func() error{httpGet("/v1/tasks/7"), httpGet("/v1/tasks/7/links"), httpGet("/v1/tasks/7/governing"),
		httpGet("/v1/tasks/7/comments"), httpGet("/v1/tasks/7/verifications")}
	b.Run("http/show-equivalent", func(b *testing.B) {
		timeCalls(b, func() error {
			for _, get := range showParts {
				if err := get(); err != nil {
					return err
				}
			}
			return nil
		})
	})
	// MCP measured the way the HTTP API is: one POST per call, the answer
	// read and discarded, so both figures are the server's cost plus the
	// same loopback transport (a go-sdk client adds its own decoding and
	// checking on top, the same whatever the server).
	rpc := func(tool, args string) func() error {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
			`"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}`
		// The answer is read into one buffer kept between calls, as io.Copy
		// to io.Discard reads the HTTP answers through one pooled buffer,
		// and searched in place for a failure.
		var answer bytes.Buffer
		return func() error {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
			req.Header.Set("Authorization", "Bearer "+secret)
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			req.Header.Set("MCP-Protocol-Version", "2026-07-28")
			req.Header.Set("Mcp-Method", "tools/call")
			req.Header.Set("Mcp-Name", tool)
			res, err := client.Do(req)
			if err != nil {
				return err
			}
			answer.Reset()
			_, _ = answer.ReadFrom(res.Body)
			res.Body.Close()
			if b := answer.Bytes(); res.StatusCode != http.StatusOK || bytes.Contains(b, []byte(`"isError":true`)) || bytes.Contains(b, []byte(`"error"`)) {
				return fmt.Errorf("status %d: %s", res.StatusCode, b)
			}
			return nil
		}
	}
	b.Run("mcp/list", func(b *testing.B) { timeCalls(b, rpc("service_list", `{}`)) })
	b.Run("mcp/show", func(b *testing.B) { timeCalls(b, rpc("service_show", `{"ref":7}`)) })
	for _, era := range webtest.Eras {
		c := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1,
			HTTPClient: &http.Client{Transport: webtest.Bearer{Token: secret, Base: client.Transport}}}, &mcp.ClientSessionOptions{ProtocolVersion: era})
		if err != nil {
			b.Fatal(err)
		}
		b.Run("go-sdk-client-"+era+"/list", func(b *testing.B) {
			timeCalls(b, func() error {
				_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "service_list", Arguments: map[string]any{}})
				return err
			})
		})
		_ = cs.Close()
	}
}

func timeCalls(b *testing.B, call func() error) {
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if err := call(); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Nanoseconds()), "p50-ns")
}
