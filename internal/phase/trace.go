//go:build phasetrace

package phase

import (
	"fmt"
	"os"
	"sync"
	"time"
)

// The marks are process-wide state, which this package allows itself
// only in the measuring build: a mark may come from any goroutine.
var (
	mu    sync.Mutex
	marks []mark
)

type mark struct {
	at   int64 // Unix nanoseconds, comparable with the measuring parent's clock
	name string
}

// Mark records that the launch reached the named phase.
func Mark(name string) {
	at := time.Now().UnixNano()
	mu.Lock()
	marks = append(marks, mark{at, name})
	mu.Unlock()
}

// Report writes the marks to stderr as "aar-exec-phase NANOS NAME" lines,
// after everything else the launch wrote, so that writing them is not
// counted in any phase but the last.
func Report() {
	mu.Lock()
	defer mu.Unlock()
	for _, m := range marks {
		fmt.Fprintf(os.Stderr, "aar-exec-phase %d %s\n", m.at, m.name)
	}
}
