package hook_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"tend/app"
	"tend/store/storetest"
	"tend/web/hook"
)

// BenchmarkEventToDelivery measures, on loopback, the time from a write's
// call to its event arriving at a receiver through the running worker:
// the outbox row, the commit's wake, the lease, the signed POST.
func BenchmarkEventToDelivery(b *testing.B) {
	ctx := context.Background()
	allow := storetest.Loopback(b)
	svc, admin, _ := storetest.Admin(b, storetest.Open(b), app.Options{Version: "bench", Outbound: allow}, "bench")
	arrived := make(chan time.Time, 1)
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusNoContent)
		arrived <- time.Now()
	}))
	defer rcv.Close()
	if _, err := svc.CreateWebhook(ctx, admin, "", app.WebhookCreate{URL: rcv.URL, Events: []string{"task.created"}}); err != nil {
		b.Fatal(err)
	}
	run, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		hook.New(svc, hook.Options{Outbound: allow}).Run(run)
	}()
	defer func() { stop(); <-done }()
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		start := time.Now()
		if _, err := svc.CreateTask(ctx, admin, "", app.TaskCreate{Title: "deliver me"}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, (<-arrived).Sub(start))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}
