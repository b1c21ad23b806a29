package webpush_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"tend/web/notify/webpush"
)

// BenchmarkSend is one push end to end: encrypt a 1 KB payload, sign the
// VAPID token, POST it to the stand-in on loopback, which checks the
// token and decrypts the body before it answers.
func BenchmarkSend(b *testing.B) {
	f := newFixture(b)
	client, sub := f.ts.Client(), f.sub()
	payload := bytes.Repeat([]byte("x"), 1024)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if status, err := webpush.Send(ctx, client, sub, payload, f.keys, subject, time.Hour); err != nil || status != 201 {
			b.Fatalf("Send = %d, %v", status, err)
		}
	}
}
