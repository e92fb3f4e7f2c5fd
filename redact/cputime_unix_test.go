//go:build unix

package redact

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime returns the process's user+system CPU time, so benchmarks can
// report throughput per CPU-second on a shared, loaded machine.
func cpuTime() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
