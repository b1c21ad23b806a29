package calfeed_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/webtest"
)

// BenchmarkCalendarFeed serves a feed of 2,000 dated tasks (half all-day,
// half timed, each with two tags, spread over the next 300 days) to a
// client without validators (build: read, encode, fold) and to one whose
// copy is current (304: the stamp query only).
//
//	go test -run '^$' -bench BenchmarkCalendarFeed -benchtime 200x ./web
func BenchmarkCalendarFeed(b *testing.B) {
	db, _ := storetest.OpenClock(b)
	svc := app.New(db, app.Options{Version: "bench", PublicURL: "https://tend.example"})
	first, err := svc.Bootstrap(context.Background(), app.BootstrapOptions{Timezone: "Europe/Berlin"})
	if err != nil {
		b.Fatal(err)
	}
	srv := webtest.Serve(b, svc)
	admin := first.Token.Secret
	send := func(method, path string, body any) []byte {
		buf, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, srv.URL+path, bytes.NewReader(buf))
		req.Header.Set("Authorization", "Bearer "+admin)
		req.Header.Set("Content-Type", "application/json")
		res, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		if res.StatusCode >= 300 {
			b.Fatalf("%s %s: %d %s", method, path, res.StatusCode, out)
		}
		return out
	}
	for i := range 2000 {
		due := storetest.Epoch.Add(time.Duration(i)*3*time.Hour + 6*time.Hour)
		body := map[string]any{"title": fmt.Sprintf("Task number %d, with a title of ordinary length", i), "due_at": due.Format(time.RFC3339),
			"tags": []string{"one", "two"}, "description": "Something to do; with a comma, and a second line.\nThere."}
		if i%2 == 0 {
			body["due_at"] = time.Date(due.Year(), due.Month(), due.Day(), 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
			body["due_is_all_day"] = true
		}
		send(http.MethodPost, "/v1/tasks", body)
	}
	var c struct {
		URL string `json:"url"`
	}
	_ = json.Unmarshal(send(http.MethodPost, "/v1/calendars", map[string]any{"audience": "workspace"}), &c)
	get := func(b *testing.B, etag string) (int, string, int) {
		req, _ := http.NewRequest(http.MethodGet, srv.URL+strings.TrimPrefix(c.URL, "https://tend.example"), nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		res, err := srv.Client().Do(req)
		if err != nil {
			b.Fatal(err)
		}
		n, _ := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res.StatusCode, res.Header.Get("ETag"), int(n)
	}
	status, etag, size := get(b, "")
	if status != http.StatusOK || size < 2000*200 {
		b.Fatalf("feed: %d, %d bytes", status, size)
	}
	b.Run("build", func(b *testing.B) {
		for b.Loop() {
			if s, _, _ := get(b, ""); s != http.StatusOK {
				b.Fatal(s)
			}
		}
		b.ReportMetric(float64(size), "bytes/feed")
	})
	b.Run("304", func(b *testing.B) {
		for b.Loop() {
			if s, _, _ := get(b, etag); s != http.StatusNotModified {
				b.Fatal(s)
			}
		}
	})
}
