package when

import (
	"strconv"
	"strings"
)

// WorkDay is what "1d" means in a duration: one working day of eight
// hours, because a duration is an estimate of effort, not a span of the
// calendar. A week ("1w") is five such days.
const WorkDay = 8 * 60

// DurationUnits are the units of a duration and their minutes.
var DurationUnits = []struct {
	Name    string
	Minutes int
}{{"w", 5 * WorkDay}, {"d", WorkDay}, {"h", 60}, {"m", 1}}

// maxDuration keeps sums far from overflow; the service has its own,
// smaller limit.
const maxDuration = 1 << 30

// ParseDuration reads a duration into minutes: "30m", "1h30m", "2h",
// "1.5h", "1d" (WorkDay), "1w", or a plain number of minutes ("90").
// Units are read largest first and each at most once.
func ParseDuration(s string) (int, error) {
	v := lower(strings.TrimSpace(s))
	if v == "" {
		return 0, SyntaxErrorf(s, 0, "a duration is empty")
	}
	if n, ok := smallInt(v, 9); ok {
		return n, nil
	}
	total, next, i := 0, 0, 0
	for i < len(v) {
		k := i
		for k < len(v) && (v[k] >= '0' && v[k] <= '9' || v[k] == '.') {
			k++
		}
		num := v[i:k]
		if num == "" || k-i > 9 {
			return 0, SyntaxErrorf(s, i, "expected a number of at most 9 digits")
		}
		u := -1
		for j := next; j < len(DurationUnits); j++ {
			if name := DurationUnits[j].Name; strings.HasPrefix(v[k:], name) {
				u, k = j, k+len(name)
				if name == "m" && strings.HasPrefix(v[k:], "in") {
					k += 2
				}
				break
			}
		}
		if u < 0 {
			return 0, SyntaxErrorf(s, k, "expected a unit (w, d, h or m) after %q, larger units first", num)
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, SyntaxErrorf(s, i, "%q is not a number", num)
		}
		total += int(f*float64(DurationUnits[u].Minutes) + 0.5)
		if total > maxDuration {
			return 0, SyntaxErrorf(s, i, "the duration is too long")
		}
		next, i = u+1, k
	}
	return total, nil
}

// FormatDuration writes minutes as ParseDuration reads them: "1h30m",
// "1d", "0m".
func FormatDuration(min int) string {
	if min <= 0 {
		return "0m"
	}
	var b strings.Builder
	for _, u := range DurationUnits {
		if n := min / u.Minutes; n > 0 {
			b.WriteString(strconv.Itoa(n))
			b.WriteString(u.Name)
			min -= n * u.Minutes
		}
	}
	return b.String()
}
