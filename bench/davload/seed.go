package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// seedTask is the i-th seeded task, the same on both servers: a title, a
// description on one in four, a tag, and a priority on half.
type seedTask struct {
	Title, Description, Tag string
	Priority                int // iCalendar's 1 (high) to 9; 0 for none
}

var seedTags = []string{"home", "work", "errand", "later", "phone", "read"}

func seedOf(i int) seedTask {
	t := seedTask{Title: fmt.Sprintf("Task %d of the bench", i), Tag: seedTags[i%len(seedTags)]}
	if i%4 == 0 {
		t.Description = "Notes: ask before Friday, keep the receipt, and write down what was agreed."
	}
	if i%2 == 0 {
		t.Priority = 1 + i%9
	}
	return t
}

// vcalendar is a seeded task as a CalDAV resource, with its uid.
func (t seedTask) vcalendar(uid string) string {
	var b strings.Builder
	b.WriteString("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//tend//davload//EN\r\nBEGIN:VTODO\r\n")
	fmt.Fprintf(&b, "UID:%s\r\nDTSTAMP:20261201T100000Z\r\nSUMMARY:%s\r\nSTATUS:NEEDS-ACTION\r\nCATEGORIES:%s\r\n", uid, t.Title, t.Tag)
	if t.Description != "" {
		fmt.Fprintf(&b, "DESCRIPTION:%s\r\n", strings.ReplaceAll(t.Description, ",", `\,`))
	}
	if t.Priority > 0 {
		fmt.Fprintf(&b, "PRIORITY:%d\r\n", t.Priority)
	}
	b.WriteString("END:VTODO\r\nEND:VCALENDAR\r\n")
	return b.String()
}

func cliSeedTend(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("seed-tend", flag.ContinueOnError)
	fs.SetOutput(stderr)
	base := fs.String("url", "", "tend's base URL")
	tasks := fs.Int("tasks", 10000, "tasks created in the project home")
	if err := fs.Parse(args); err != nil {
		return err
	}
	token := os.Getenv("TEND_AB_TOKEN")
	if *base == "" || token == "" {
		return fmt.Errorf("seed-tend needs -url and TEND_AB_TOKEN")
	}
	c := newClient()
	post := func(path string, body any) error {
		b, _ := json.Marshal(body)
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(*base, "/")+path, bytes.NewReader(b))
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		status, answer, err := c.do(req)
		if err == nil && status != http.StatusCreated {
			err = fmt.Errorf("POST %s: %d %.300s", path, status, answer)
		}
		return err
	}
	start := time.Now()
	if err := post("/v1/projects", map[string]string{"key": "home", "title": "Home"}); err != nil {
		return err
	}
	// Eight writers, as bench/load seeds: tend commits them in groups.
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1)) - 1; i < *tasks; i = int(next.Add(1)) - 1 {
				t := seedOf(i)
				body := map[string]any{"title": t.Title, "project": "home", "tags": []string{t.Tag}}
				if t.Description != "" {
					body["description"] = t.Description
				}
				if err := post("/v1/tasks", body); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	fmt.Fprintf(stderr, "  seeded %d tasks through the API in %.1f s\n", *tasks, time.Since(start).Seconds())
	return nil
}

// cliSeedFiles writes a Radicale calendar collection holding the seeded
// tasks, one file each, as Radicale's file storage keeps them: quicker than
// 10,000 PUTs, and Radicale reads it as its own.
func cliSeedFiles(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("seed-files", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", "", "the collection's directory (created)")
	tasks := fs.Int("tasks", 10000, "tasks written")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("seed-files needs -dir")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	props := `{"C:supported-calendar-component-set": "VTODO", "D:displayname": "Home", "tag": "VCALENDAR"}`
	if err := os.WriteFile(filepath.Join(*dir, ".Radicale.props"), []byte(props), 0o644); err != nil {
		return err
	}
	for i := range *tasks {
		uid := fmt.Sprintf("bench-%05d", i)
		if err := os.WriteFile(filepath.Join(*dir, uid+".ics"), []byte(seedOf(i).vcalendar(uid)), 0o644); err != nil {
			return err
		}
	}
	fmt.Fprintf(stderr, "  wrote %d tasks into %s\n", *tasks, *dir)
	return nil
}
