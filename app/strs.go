package app

import (
	"fmt"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

func joinWords(ws []string) string { return strings.Join(ws, ", ") }

// DidYouMean is " (did you mean x?)" for the name typed most likely meant,
// or "" when none is close.
func DidYouMean(typed string, names []string) string {
	if n := Nearest(typed, names); n != "" {
		return fmt.Sprintf(" (did you mean %s?)", n)
	}
	return ""
}

// Nearest is the name among names a mistyped one most likely meant, "" when
// none is close: one that begins with it, or one within a couple of edits
// (a letter missing, added, changed or two swapped), the fewest edits first.
func Nearest(typed string, names []string) string {
	typed = strings.ToLower(typed)
	edits := min(2, max(1, len(typed)/3))
	best, bestDist := "", 0
	for _, n := range names {
		d, limit := editDistance(typed, strings.ToLower(n)), edits
		if len(typed) >= 3 && strings.HasPrefix(strings.ToLower(n), typed) {
			d, limit = 1, 1
		}
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = n, d
		}
	}
	return best
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbours, each one edit.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
