package audit

import (
	"fmt"
	"os"
	"time"
)

// lockFile takes an exclusive lock on f, waiting at most timeout with a
// short backoff; tryLock is the platform's one non-blocking attempt.
func lockFile(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	wait := 50 * time.Microsecond
	for {
		locked, err := tryLock(f)
		if err != nil || locked {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("another process held the lock for %v", timeout)
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}
