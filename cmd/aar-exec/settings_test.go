package main

import (
	"os"
	"path/filepath"
	"testing"
)

// resolveExisting answers as resolving every prefix from the longest
// down would: through symlinked directories, past missing ones, and past
// a dangling link, which Lstat finds but EvalSymlinks cannot resolve.
func TestResolveExisting(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(rel string) {
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/dir")
	ln(filepath.Join(root, "real"), "link")
	ln(filepath.Join(root, "missing"), "dangling")
	tests := []struct{ in, want string }{
		{"real/dir", "real/dir"},
		{"link/dir", "real/dir"},
		{"link/dir/a/b/c", "real/dir/a/b/c"},
		{"link/nope/x", "real/nope/x"},
		{"dangling", "dangling"},
		{"dangling/x/y", "dangling/x/y"},
		{"gone/x", "gone/x"},
	}
	for _, tt := range tests {
		got := resolveExisting(filepath.Join(root, tt.in))
		if want := filepath.Join(root, tt.want); got != want {
			t.Errorf("resolveExisting(%q) = %q, want %q", tt.in, got, want)
		}
	}
}
