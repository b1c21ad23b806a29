package app

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// The kept first AgendaCap of a list offered in any order are the first
// AgendaCap of the whole list sorted, whatever the ties.
func TestAgendaTopKeepsTheFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{0, 1, AgendaCap - 1, AgendaCap, AgendaCap + 1, 500, 3000} {
		all := make([]agendaEntry, n)
		for i := range all {
			all[i] = agendaEntry{weight: rng.IntN(4), due: int64(rng.IntN(40)), ref: int64(i + 1), id: strconv.Itoa(i + 1)}
			if rng.IntN(5) == 0 {
				all[i].due = math.MaxInt64
			}
		}
		rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
		var top agendaTop
		for _, e := range all {
			top.offer(e)
		}
		slices.SortFunc(top.kept, agendaEntry.compare)
		slices.SortFunc(all, agendaEntry.compare)
		if want := all[:min(n, AgendaCap)]; !slices.Equal(top.kept, want) {
			t.Fatalf("%d entries: kept %v, want %v", n, top.kept, want)
		}
	}
}
