// Package testdir gives tests a temporary directory that Wine can remove.
// Go 1.26's os.RemoveAll uses Windows calls Wine 8 lacks ("unlinkat:
// Invalid function"), so t.TempDir's cleanup fails when the Wine lane runs
// the tests as Windows binaries; removing one entry at a time, deepest
// first, works everywhere.
package testdir

import (
	"os"
	"path/filepath"
	"testing"
)

// New returns a new temporary directory that is removed when t ends.
func New(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "aar-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := Remove(dir); err != nil {
			t.Errorf("cleanup: %v", err)
		}
	})
	return dir
}

// Remove removes dir and everything in it, deepest first.
func Remove(dir string) error {
	var paths []string
	_ = filepath.WalkDir(dir, func(p string, _ os.DirEntry, _ error) error {
		paths = append(paths, p)
		return nil
	})
	for i := len(paths) - 1; i >= 0; i-- {
		if err := os.Remove(paths[i]); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	return nil
}
