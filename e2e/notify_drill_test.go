package e2e

import (
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"tend/web/webtest"
)

// TestNotifyKillNine: `tend serve --outbound-allow 127.0.0.1/32` runs as a
// child process with reminders falling due on the real clock, a few
// seconds out, sent to an ntfy stand-in on loopback in this process. The
// server is killed with SIGKILL each time a share of them has arrived,
// mid-stream, and started again on the same file, several times over
// (once with -short). Required: every reminder arrived; one that arrived
// twice (the kill fell between its send and its record) carried the same
// id both times; and the file records every firing and notification sent.
// The drill waits on arrivals, never on a clock.
func TestNotifyKillNine(t *testing.T) {
	t.Parallel()
	kills, tasks := 3, 60
	if testing.Short() {
		kills, tasks = 1, 20
	}
	dbPath := tempDB(t)
	ntfy := webtest.NewNtfy(t, "")
	start := func(first bool) *child {
		return startChild(t, dbPath, first, "--outbound-allow", "127.0.0.1/32")
	}
	srv := start(true)
	token := srv.token
	if status, out := apiJSON(t, srv.url, token, http.MethodPost, "/v1/me/channels", map[string]any{"type": "ntfy", "url": ntfy.URL + "/drill"}); status != http.StatusCreated {
		t.Fatalf("channel: %d %v", status, out)
	}
	for i := range tasks {
		// Four bunches a second apart, the first two seconds out: enough
		// to be queued before it falls due however slow the creates.
		at := time.Now().Add(2*time.Second + time.Duration(i%4)*time.Second).UTC().Format(time.RFC3339)
		if status, out := apiJSON(t, srv.url, token, http.MethodPost, "/v1/tasks", map[string]any{"title": fmt.Sprintf("drill %d", i),
			"reminders": []any{map[string]any{"at": at}}}); status != http.StatusCreated {
			t.Fatalf("task %d: %d %v", i, status, out)
		}
	}
	// waitFor waits until n reminders have arrived; it fails only when
	// none arrives for longer than a lease.
	waitFor := func(n int) {
		for len(arrivedTitles(ntfy)) < n {
			select {
			case <-ntfy.Arrived:
			case <-time.After(90 * time.Second):
				t.Fatalf("%d of %d reminders arrived, and none for 90 s", len(arrivedTitles(ntfy)), n)
			}
		}
	}
	for round := range kills {
		waitFor((round + 1) * tasks / (kills + 1))
		if err := srv.cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		<-srv.done
		srv.done <- nil // for the cleanup's wait
		srv = start(false)
	}
	waitFor(tasks)
	ids, repeats, times := map[string]string{}, 0, map[string]int{}
	for _, m := range ntfy.Messages() {
		if times[m.Title]++; times[m.Title] > 1+kills {
			t.Errorf("%s arrived %d times in %d kills", m.Title, times[m.Title], kills)
		}
		if first, ok := ids[m.Title]; ok {
			repeats++
			if first != m.SequenceID {
				t.Errorf("%s arrived as %s and again as %s", m.Title, first, m.SequenceID)
			}
			continue
		}
		ids[m.Title] = m.SequenceID
	}
	t.Logf("%d reminders, %d kills, %d repeats", tasks, kills, repeats)
	// A send whose answer is still on its way when the server stops is
	// not recorded (it goes out again on the next start), so the drill
	// waits until the server has recorded every one before stopping it.
	for give := time.Now().Add(90 * time.Second); !allSent(t, srv.url, token, tasks); {
		if time.Now().After(give) {
			t.Fatal("the server has not recorded every notification sent within 90 s")
		}
		select {
		case <-ntfy.Arrived:
		case <-time.After(20 * time.Millisecond):
		}
	}
	// Stopped, not killed: the file must hold what the server recorded.
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	<-srv.done
	srv.done <- nil
	db := openChecked(t, dbPath)
	var unsent int
	if err := db.QueryRow(`SELECT (SELECT count(*) FROM reminder_fires WHERE state != 'sent')
		+ (SELECT count(*) FROM notifications WHERE kind = 'reminder' AND state != 'sent')`).Scan(&unsent); err != nil || unsent != 0 {
		t.Errorf("%d firings or notifications not recorded sent (%v)", unsent, err)
	}
}

// allSent reports whether the server lists n notifications, every one
// recorded sent.
func allSent(t *testing.T, base, token string, n int) bool {
	t.Helper()
	status, out := apiJSON(t, base, token, http.MethodGet, "/v1/me/notifications?limit=200", nil)
	items, _ := out["items"].([]any)
	if status != http.StatusOK || len(items) < n {
		return false
	}
	for _, it := range items {
		if m, _ := it.(map[string]any); m["state"] != "sent" {
			return false
		}
	}
	return true
}

// arrivedTitles is the set of titles the stand-in received.
func arrivedTitles(n *webtest.Ntfy) map[string]bool {
	out := map[string]bool{}
	for _, m := range n.Messages() {
		out[m.Title] = true
	}
	return out
}
