//go:build unix

package web_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the test process has used so
// far; benchmarks report it per operation, a figure other load on the
// machine disturbs far less than wall time.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
