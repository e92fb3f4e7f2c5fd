//go:build windows

package audit

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// The lock covers one byte far beyond any real offset: Windows locks are
// mandatory, so locking real bytes would block readers such as Verify.
const (
	lockOffsetLow  = 0xFFFFFFFE
	lockOffsetHigh = 0x7FFFFFFF
)

// lockFile takes an exclusive LockFileEx lock on f, waiting at most
// timeout.
func lockFile(f *os.File, timeout time.Duration) error {
	h := windows.Handle(f.Fd())
	deadline := time.Now().Add(timeout)
	wait := 50 * time.Microsecond
	for {
		ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
		err := windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
		if err == nil {
			return nil
		}
		if !errors.Is(err, windows.ERROR_LOCK_VIOLATION) && !errors.Is(err, windows.ERROR_IO_PENDING) {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("another process held the lock for %v", timeout)
		}
		time.Sleep(wait)
		wait = min(2*wait, 20*time.Millisecond)
	}
}

func unlockFile(f *os.File) {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
