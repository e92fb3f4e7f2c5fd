//go:build linux

package linux

import (
	"io/fs"
	"slices"
	"testing"
	"testing/fstest"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// fakeFS lists directories from a map, the way readDirNoFollow would.
func fakeFS(tree fstest.MapFS) func(string) ([]fs.DirEntry, error) {
	return func(dir string) ([]fs.DirEntry, error) {
		name := dir[1:]
		if name == "" {
			name = "."
		}
		return fs.ReadDir(tree, name)
	}
}

func TestComplement(t *testing.T) {
	tree := fstest.MapFS{
		"etc/shadow":          {},
		"etc/passwd":          {},
		"etc/sudoers.d/x":     {},
		"etc/ssl/certs/a.pem": {},
		"root/.ssh/id":        {},
		"root/.bashrc":        {},
		"root/go/bin/x":       {},
		"root/link":           {Mode: fs.ModeSymlink},
		"usr/bin/sh":          {},
	}
	tests := []struct {
		name   string
		denied []string
		want   []string
	}{
		{"nothing denied", nil, []string{"/etc", "/root", "/usr"}},
		{"one file", []string{"/etc/shadow"},
			[]string{"/etc/passwd", "/etc/ssl", "/etc/sudoers.d", "/root", "/usr"}},
		{"a directory and a file", []string{"/etc/shadow", "/etc/sudoers.d", "/root/.ssh"},
			[]string{"/etc/passwd", "/etc/ssl", "/root/.bashrc", "/root/go", "/usr"}},
		{"missing entries cost nothing", []string{"/root/.aws/credentials", "/nope/x"},
			[]string{"/etc", "/root/.bashrc", "/root/.ssh", "/root/go", "/usr"}},
		{"relative and root entries are ignored", []string{"etc", "/"}, []string{"/etc", "/root", "/usr"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := complement(tt.denied, fakeFS(tree))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("complement(%q)\n got %q\nwant %q", tt.denied, got, tt.want)
			}
		})
	}
}

func TestRulesNeverGrantDevicesOrMissingRights(t *testing.T) {
	l := &layout{abi: 7, writable: []string{"/w"}, devices: []string{"/dev/null"}}
	rs, err := l.rules(fakeFS(fstest.MapFS{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if r.path == "/w" && r.access&(ll.AccessFSMakeChar|ll.AccessFSMakeBlock) != 0 {
			t.Errorf("workspace may create device nodes: %v", names(r.access))
		}
		if r.access&^handledRights(7) != 0 {
			t.Errorf("rule %q grants unhandled rights", r.path)
		}
	}
	old := &layout{abi: 1, writable: []string{"/w"}}
	rs, _ = old.rules(fakeFS(fstest.MapFS{}))
	for _, r := range rs {
		if r.access&^handledRights(1) != 0 {
			t.Errorf("ABI 1 rule %q grants %v", r.path, names(r.access))
		}
	}
}

func TestHandledRights(t *testing.T) {
	for abi, want := range map[int]int{0: 0, 1: 13, 2: 14, 3: 15, 4: 15, 5: 16, 7: 16, 9: 17} {
		if got := len(names(handledRights(abi))); got != want {
			t.Errorf("ABI %d: %d rights, want %d", abi, got, want)
		}
	}
}

func TestCheckWritable(t *testing.T) {
	tests := []struct {
		path      string
		allowHome bool
		ok        bool
	}{
		{"/", false, false},
		{"/etc", false, false},
		{"/usr/local/src", false, false},
		{"/home", false, false},
		{"/tmp", false, false},
		{"/tmp/ws", false, true},
		{"/home/u", false, false},
		{"/home/u", true, true},
		{"/home/u/proj", false, true},
		{"/var/lib/x", false, false},
		{"/var/www", false, true},
		{"/srv/app", false, true},
		{"relative", false, false},
	}
	for _, tt := range tests {
		err := CheckWritable(tt.path, "/home/u", tt.allowHome)
		if (err == nil) != tt.ok {
			t.Errorf("CheckWritable(%q, allowHome=%v) = %v, want ok=%v", tt.path, tt.allowHome, err, tt.ok)
		}
	}
}
