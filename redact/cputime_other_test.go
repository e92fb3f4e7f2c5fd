//go:build !unix

package redact

import "time"

// cpuTime is not measured here; benchmarks then report only wall time.
func cpuTime() time.Duration { return 0 }
