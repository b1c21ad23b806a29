package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"tend/bench/benchmain"
)

func cliReport(files []string, stdout, stderr io.Writer) error {
	if len(files) == 0 {
		fmt.Fprintln(stderr, usage)
		return fmt.Errorf("report needs a file")
	}
	runs, err := benchmain.ReadRuns[Run](files)
	if err != nil {
		return err
	}
	return report(runs, stdout)
}

var loadOrder = []string{"initial-sync", "empty-delta", "one-change-delta", "put", "api-patch"}

// report prints, per load, each server's p50 and p99 (the median over its
// rounds) and how many times slower the peer is than tend; then the
// targets of issue 36 §4, each with the figures it is judged on. Ratios
// are taken round by round, where the servers ran one after the other, and
// shown as their range.
func report(runs []Run, w io.Writer) error {
	var servers []string
	rounds := map[int]map[string]Run{}
	for _, r := range runs {
		if !slices.Contains(servers, r.Server) {
			servers = append(servers, r.Server)
		}
		if rounds[r.Round] == nil {
			rounds[r.Round] = map[string]Run{}
		}
		rounds[r.Round][r.Server] = r
	}
	// tend first, its peers after, so that every ratio reads peer/tend.
	slices.SortStableFunc(servers, func(a, b string) int {
		switch {
		case a == "tend" && b != "tend":
			return -1
		case b == "tend" && a != "tend":
			return 1
		}
		return 0
	})
	get := func(r Run, load string) (Result, bool) {
		for _, x := range r.Results {
			if x.Load == load {
				return x, true
			}
		}
		return Result{}, false
	}
	median := func(server, load string, p99 bool) (float64, int) {
		var v []float64
		for _, rs := range rounds {
			if res, ok := get(rs[server], load); ok {
				v = append(v, map[bool]float64{false: res.P50ms, true: res.P99ms}[p99])
			}
		}
		if len(v) == 0 {
			return 0, 0
		}
		slices.Sort(v)
		if len(v)%2 == 0 {
			return (v[len(v)/2-1] + v[len(v)/2]) / 2, len(v)
		}
		return v[len(v)/2], len(v)
	}
	// ratio is num/den of the p50s in each round that has both.
	ratio := func(numServer, numLoad, denServer, denLoad string) (lo, hi float64, n int) {
		for _, rs := range rounds {
			a, okA := get(rs[numServer], numLoad)
			b, okB := get(rs[denServer], denLoad)
			if !okA || !okB || b.P50ms == 0 {
				continue
			}
			x := a.P50ms / b.P50ms
			if n == 0 || x < lo {
				lo = x
			}
			if n == 0 || x > hi {
				hi = x
			}
			n++
		}
		return lo, hi, n
	}
	fmt.Fprintf(w, "%-18s", "load (ms)")
	for _, s := range servers {
		fmt.Fprintf(w, " %12s %12s", s+" p50", s+" p99")
	}
	for _, s := range servers[1:] {
		fmt.Fprintf(w, " %18s", s+"/tend p50")
	}
	fmt.Fprintln(w)
	for _, load := range loadOrder {
		fmt.Fprintf(w, "%-18s", load)
		for _, s := range servers {
			p50, k := median(s, load, false)
			p99, _ := median(s, load, true)
			if k == 0 {
				fmt.Fprintf(w, " %12s %12s", "-", "-")
				continue
			}
			fmt.Fprintf(w, " %12.2f %12.2f", p50, p99)
		}
		for _, s := range servers[1:] {
			lo, hi, k := ratio(s, load, "tend", load)
			if k == 0 {
				fmt.Fprintf(w, " %18s", "-")
				continue
			}
			fmt.Fprintf(w, " %18s", span(lo, hi))
		}
		fmt.Fprintln(w)
	}
	var loads []string
	for _, r := range runs {
		loads = append(loads, fmt.Sprintf("%s round %d %s→%s", r.Server, r.Round, r.LoadAvgStart, r.LoadAvgEnd))
	}
	fmt.Fprintf(w, "\n%d rounds; p50 and p99 are the median over rounds; ratios are per round (lowest–highest)\nload average (1 min) before→after: %s\n\n", len(rounds), strings.Join(loads, ", "))
	meets := func(ok bool) string {
		if ok {
			return "met"
		}
		return "NOT met"
	}
	if _, k := median("tend", "empty-delta", false); k > 0 {
		e, _ := median("tend", "empty-delta", false)
		o, _ := median("tend", "one-change-delta", false)
		fmt.Fprintf(w, "target: deltas ≤ 5 ms p50: empty %.2f ms, one change %.2f ms: %s\n", e, o, meets(e <= 5 && o <= 5))
		i, _ := median("tend", "initial-sync", false)
		fmt.Fprintf(w, "target: initial sync ≤ 1 s p50: %.0f ms: %s\n", i, meets(i <= 1000))
	}
	for _, s := range servers[1:] {
		lo1, hi1, k1 := ratio(s, "empty-delta", "tend", "empty-delta")
		lo2, hi2, k2 := ratio(s, "one-change-delta", "tend", "one-change-delta")
		if k1 > 0 && k2 > 0 {
			fmt.Fprintf(w, "target: deltas ≥ 10× %s: empty %s×, one change %s×: %s\n", s, span(lo1, hi1), span(lo2, hi2), meets(min(lo1, lo2) >= 10))
		}
	}
	if lo, hi, k := ratio("tend", "put", "tend", "api-patch"); k > 0 {
		fmt.Fprintf(w, "target: CalDAV PUT ≤ 1.2× API PATCH p50: %s×: %s\n", span(lo, hi), meets(hi <= 1.2))
	}
	return nil
}

func span(lo, hi float64) string {
	if fmt.Sprintf("%.2f", lo) == fmt.Sprintf("%.2f", hi) {
		return fmt.Sprintf("%.2f", lo)
	}
	return fmt.Sprintf("%.2f–%.2f", lo, hi)
}
