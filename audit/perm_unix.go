//go:build unix

package audit

import (
	"errors"
	"fmt"
	"io/fs"
)

var errGroupOther = errors.New("accessible by group or others; chmod 600 it")

// checkKeyMode refuses a key file that anyone but its owner can read or
// write: a readable key lets them forge the chain.
func checkKeyMode(fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return fmt.Errorf("mode %04o: %w", perm, errGroupOther)
	}
	return nil
}

// checkLogMode refuses a log that group or others may write.
func checkLogMode(fi fs.FileInfo) error {
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Errorf("mode %04o: writable by group or others; chmod 600 it", perm)
	}
	return nil
}
