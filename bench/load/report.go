package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// Report prints the runs side by side, in the order they ran: requests
// per second with the new/old ratio of each round (the range over the
// rounds), then p50 / p99, then the runs themselves, then anything a
// revision could not run or did not answer.
func Report(w io.Writer, runs []Run) error {
	if len(runs) == 0 {
		return fmt.Errorf("no runs to report")
	}
	keys := loadKeys(runs)
	head := []string{"load"}
	for _, r := range runs {
		head = append(head, fmt.Sprintf("%s %d", r.Label, r.Round))
	}
	b := &strings.Builder{}
	fmt.Fprintf(b, "%s\n\n", summary(runs))

	fmt.Fprintf(b, "Requests per second (higher is better); new/old is each round's ratio, lowest–highest:\n\n")
	table(b, append(slices.Clone(head), "new/old"), len(keys), func(row int) []string {
		cells := []string{loadName(keys[row])}
		for _, r := range runs {
			cells = append(cells, cell(r, keys[row], func(x Result) string { return thousands(x.PerSec) }))
		}
		return append(cells, ratioRange(runs, keys[row], func(x Result) float64 { return x.PerSec }))
	})

	fmt.Fprintf(b, "\nLatency p50 / p99, ms, from sending the request to reading the answer's last byte; new/old p50 is\n"+
		"each round's ratio of the medians, lowest–highest (below 1 is faster; it moves less than req/s on a busy machine):\n\n")
	table(b, append(slices.Clone(head), "new/old p50"), len(keys), func(row int) []string {
		cells := []string{loadName(keys[row])}
		for _, r := range runs {
			cells = append(cells, cell(r, keys[row], func(x Result) string { return fmt.Sprintf("%.2f / %.2f", x.P50ms, x.P99ms) }))
		}
		return append(cells, ratioRange(runs, keys[row], func(x Result) float64 { return x.P50ms }))
	})

	if cpuMeasured(runs) {
		fmt.Fprintf(b, "\nServer CPU a request, µs, user and system over all its threads (lower is better; a neighbour's work on a\n"+
			"shared machine slows the server without adding to its CPU, so this moves less than req/s); new/old as above:\n\n")
		table(b, append(slices.Clone(head), "new/old"), len(keys), func(row int) []string {
			cells := []string{loadName(keys[row])}
			for _, r := range runs {
				cells = append(cells, cell(r, keys[row], func(x Result) string {
					if x.ServerCPUus <= 0 {
						return "—"
					}
					return thousands(x.ServerCPUus)
				}))
			}
			return append(cells, ratioRange(runs, keys[row], func(x Result) float64 { return x.ServerCPUus }))
		})
	}

	fmt.Fprintf(b, "\nRuns:\n\n")
	table(b, []string{"run", "revision", "started (UTC)", "seed", "load average, start → end"}, len(runs), func(i int) []string {
		r := runs[i]
		return []string{fmt.Sprintf("%s %d", r.Label, r.Round), r.Rev, r.Started.Format("2006-01-02 15:04:05"),
			fmt.Sprintf("%s tasks in %.1f s", thousands(float64(r.Tasks)), r.SeedSeconds), loadSpan(r)}
	})
	notes := notes(runs, keys)
	if len(notes) > 0 {
		fmt.Fprintf(b, "\n%s\n", strings.Join(notes, "\n"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cpuMeasured reports whether any run recorded its server's CPU.
func cpuMeasured(runs []Run) bool {
	for _, r := range runs {
		for _, x := range r.Results {
			if x.ServerCPUus > 0 {
				return true
			}
		}
	}
	return false
}

// loadSpan is the run's load average before and after, "—" where the
// system reports none.
func loadSpan(r Run) string {
	if r.LoadAvgStart == "" && r.LoadAvgEnd == "" {
		return "—"
	}
	return r.LoadAvgStart + " → " + r.LoadAvgEnd
}

func summary(runs []Run) string {
	revs := map[string]string{}
	rounds := 0
	for _, r := range runs {
		revs[r.Label] = r.Rev
		rounds = max(rounds, r.Round)
	}
	var perLoad int
	for _, r := range runs {
		for _, x := range r.Results {
			perLoad = max(perLoad, x.Requests)
		}
	}
	plural := "s"
	if rounds == 1 {
		plural = ""
	}
	return fmt.Sprintf("A/B: old = %s, new = %s; %s seeded tasks; %s requests per load; %d round%s, alternating",
		revs["old"], revs["new"], thousands(float64(runs[0].Tasks)), thousands(float64(perLoad)), rounds, plural)
}

// loadKeys are the loads met in the runs, in the harness's order, then
// any this build of the harness does not know.
func loadKeys(runs []Run) []string {
	var met, keys []string
	for _, r := range runs {
		for _, x := range r.Results {
			if !slices.Contains(met, x.Load) {
				met = append(met, x.Load)
			}
		}
	}
	for _, l := range loads {
		if slices.Contains(met, l.key) {
			keys = append(keys, l.key)
		}
	}
	for _, k := range met {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys
}

func loadName(key string) string {
	for _, l := range loads {
		if l.key == key {
			return l.name
		}
	}
	return key
}

func result(r Run, key string) (Result, bool) {
	for _, x := range r.Results {
		if x.Load == key {
			return x, true
		}
	}
	return Result{}, false
}

// measured is whether x holds figures to compare.
func measured(x Result) bool { return x.Unsupported == "" && x.Failed == 0 && x.Requests > 0 }

func cell(r Run, key string, show func(Result) string) string {
	x, ok := result(r, key)
	switch {
	case !ok:
		return "not run"
	case x.Unsupported != "":
		return "unsupported"
	case x.Failed > 0:
		return fmt.Sprintf("FAILED %d/%d", x.Failed, x.Requests)
	}
	return show(x)
}

// ratioRange is the lowest and highest new/old ratio of a figure over the
// rounds that measured the load on both sides.
func ratioRange(runs []Run, key string, figure func(Result) float64) string {
	var ratios []float64
	for _, n := range runs {
		if n.Label != "new" {
			continue
		}
		for _, o := range runs {
			if o.Label != "old" || o.Round != n.Round {
				continue
			}
			x, okx := result(n, key)
			y, oky := result(o, key)
			if okx && oky && measured(x) && measured(y) && figure(x) > 0 && figure(y) > 0 {
				ratios = append(ratios, figure(x)/figure(y))
			}
		}
	}
	if len(ratios) == 0 {
		return "—"
	}
	lo, hi := slices.Min(ratios), slices.Max(ratios)
	if fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi) {
		return fmt.Sprintf("%.2f", lo)
	}
	return fmt.Sprintf("%.2f–%.2f", lo, hi)
}

// notes say why a revision did not run a load, and what a failed one
// answered.
func notes(runs []Run, keys []string) []string {
	var out []string
	for _, key := range keys {
		var said []string
		for _, r := range runs {
			x, ok := result(r, key)
			if !ok {
				continue
			}
			var s string
			switch {
			case x.Unsupported != "":
				s = fmt.Sprintf("%s (%s): unsupported, %s", r.Label, r.Rev, x.Unsupported)
			case x.Failed > 0:
				s = fmt.Sprintf("%s %d (%s): %d of %d failed, e.g. %s", r.Label, r.Round, r.Rev, x.Failed, x.Requests, x.FirstFailure)
			}
			if s != "" && !slices.Contains(said, s) {
				said = append(said, s)
			}
		}
		if len(said) > 0 {
			out = append(out, "- "+loadName(key)+": "+strings.Join(said, "; "))
		}
	}
	return out
}

// table writes a Markdown table, its columns padded to line up.
func table(b *strings.Builder, head []string, rows int, row func(int) []string) {
	all := [][]string{head}
	for i := range rows {
		all = append(all, row(i))
	}
	width := make([]int, len(head))
	for _, r := range all {
		for i, c := range r {
			width[i] = max(width[i], len([]rune(c)))
		}
	}
	line := func(r []string) {
		for i, c := range r {
			pad := strings.Repeat(" ", width[i]-len([]rune(c)))
			if i == 0 {
				fmt.Fprintf(b, "| %s%s ", c, pad)
			} else {
				fmt.Fprintf(b, "| %s%s ", pad, c)
			}
		}
		b.WriteString("|\n")
	}
	line(all[0])
	for i, w := range width {
		if i == 0 {
			fmt.Fprintf(b, "|%s", strings.Repeat("-", w+2))
		} else {
			fmt.Fprintf(b, "|%s:", strings.Repeat("-", w+1))
		}
	}
	b.WriteString("|\n")
	for _, r := range all[1:] {
		line(r)
	}
}

// thousands rounds v and groups its digits with commas.
func thousands(v float64) string {
	s := strconv.FormatInt(int64(v+0.5), 10)
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}
