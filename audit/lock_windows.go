//go:build windows

package audit

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// The lock covers one byte far beyond any real offset: Windows locks are
// mandatory, so locking real bytes would block readers such as Verify.
const (
	lockOffsetLow  = 0xFFFFFFFE
	lockOffsetHigh = 0x7FFFFFFF
)

// tryLock makes one non-blocking attempt at an exclusive LockFileEx lock.
func tryLock(f *os.File) (bool, error) {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, err
}

func unlockFile(f *os.File) {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	_ = windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
