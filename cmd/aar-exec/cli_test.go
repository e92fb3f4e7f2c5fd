package main

import (
	"os"
	"slices"
	"testing"

	"github.com/aar-agent/aar-exec/policy"
	"github.com/aar-agent/aar-exec/shellargs"
)

func TestCommandEnv(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin", "HOME=/home/u", "TERM=xterm", "LANG=C.UTF-8", "EDITOR=vi",
		"BASH_ENV=/tmp/evil", "ENV=/tmp/evil", "BASH_FUNC_ls%%=() { evil; }", "SHELLOPTS=xtrace",
		"PS4=$(evil)", "PROMPT_COMMAND=evil", "GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789",
		"OPENAI_API_KEY=sk-x", "INNOCENT=AKIAIOSFODNN7EXAMPLE", "AAR_PARENT_ID=spoofed", "NOEQUALS",
	}
	tests := []struct {
		name string
		s    settings
		want []string
	}{
		{"linux drops code and secrets", settings{mode: "linux", envMode: "inherit"},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "TERM=xterm", "LANG=C.UTF-8", "EDITOR=vi"}},
		{"local keeps secrets, drops code", settings{mode: "local", envMode: "inherit"},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "TERM=xterm", "LANG=C.UTF-8", "EDITOR=vi",
				"GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "OPENAI_API_KEY=sk-x", "INNOCENT=AKIAIOSFODNN7EXAMPLE"}},
		{"--env passes a secret", settings{mode: "linux", envMode: "inherit", passEnv: []string{"GITHUB_TOKEN"}},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "TERM=xterm", "LANG=C.UTF-8", "EDITOR=vi",
				"GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789"}},
		{"strict", settings{mode: "linux", envMode: "strict", passEnv: []string{"EDITOR"}},
			[]string{"PATH=/usr/bin", "HOME=/home/u", "TERM=xterm", "LANG=C.UTF-8", "EDITOR=vi"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := commandEnv(environ, &tt.s); !slices.Equal(got, tt.want) {
				t.Errorf("commandEnv\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestWithin pins the containment the reach checks rely on.
func TestWithin(t *testing.T) {
	tests := []struct {
		p, dir string
		want   bool
	}{
		{"/ws", "/ws", true},
		{"/ws/a/b", "/ws", true},
		{"/ws2/a", "/ws", false},
		{"/a", "/ws", false},
		{"/ws/../etc", "/ws", false},
		{"/ws/..x", "/ws", true},
		{"/anything", "/", true},
	}
	for _, tt := range tests {
		if got := policy.Within(tt.p, tt.dir, "/"); got != tt.want {
			t.Errorf("policy.Within(%q, %q) = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}

func TestNeedsBash(t *testing.T) {
	tests := []struct {
		args []string
		want bool
	}{
		{[]string{"-c", "x"}, false},
		{[]string{"-ec", "x"}, false},
		{[]string{"-e", "-o", "pipefail", "-c", "x"}, true},
		{[]string{"-O", "extglob", "-c", "x"}, true},
		{[]string{"--noprofile", "--norc", "-c", "x"}, true},
		{[]string{"-o", "errexit", "-c", "x"}, false},
	}
	for _, tt := range tests {
		inv, err := shellargs.Parse("aar-exec", tt.args, ownFlag)
		if err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got := needsBash(inv); got != tt.want {
			t.Errorf("needsBash(%q) = %v, want %v", tt.args, got, tt.want)
		}
	}
}

func TestCheckScript(t *testing.T) {
	for _, bad := range []string{"a\x00b", "\xff", string(make([]byte, 5<<20))} {
		if checkScript("s", bad) == nil {
			t.Errorf("checkScript(%.20q) = nil, want an error", bad)
		}
	}
	if err := checkScript("s", "echo ünïcødé | tr a b"); err != nil {
		t.Errorf("checkScript of an ordinary script: %v", err)
	}
}

func TestParseFlags(t *testing.T) {
	env := map[string]string{"AAR_MODE": "local", "AAR_TIMEOUT": "90s", "AAR_READ_ONLY": "true",
		"AAR_DENIED_PATHS": "**/a,**/b", "AAR_MAX_MEMORY_MB": "64", "AAR_ALLOW_WRITE": "/env"}
	getenv := func(k string) string { return env[k] }
	f, err := parseFlags([]string{"--mode=linux", "--denied-paths=**/c", "--allow-write=/x:/y",
		"--allow-write=/z", "--quiet", "--max-processes=7"}, getenv)
	if err != nil {
		t.Fatal(err)
	}
	if f.Mode != "linux" || f.Timeout.Seconds() != 90 || !f.ReadOnly || f.MaxMemoryMB != 64 ||
		!f.Quiet || f.MaxProcesses != 7 ||
		!slices.Equal(f.DeniedPaths, []string{"**/c", "**/a", "**/b"}) ||
		!slices.Equal(f.AllowWrite, []string{"/x", "/y", "/z"}) {
		t.Errorf("flags win over AAR_*, lists add up, denied paths take both: got %+v", f)
	}

	bad := []struct {
		own []string
		env map[string]string
	}{
		{nil, map[string]string{"AAR_TIMEOUT": "soon"}},
		{nil, map[string]string{"AAR_QUIET": "maybe"}},
		{nil, map[string]string{"AAR_MAX_PROCESSES": "many"}},
		{[]string{"--timeout=banana"}, nil},
		{[]string{"--max-memory-mb=1e3"}, nil},
		{[]string{"--no-such-flag=1"}, nil},
	}
	for _, b := range bad {
		if _, err := parseFlags(b.own, func(k string) string { return b.env[k] }); err == nil {
			t.Errorf("parseFlags(%q, %v) accepted it", b.own, b.env)
		}
	}
}

func TestOwnFlag(t *testing.T) {
	tests := []struct {
		name              string
		isOwn, takesValue bool
	}{
		{"workspace", true, true},
		{"denied-paths", true, true},
		{"timeout", true, true},
		{"quiet", true, false},
		{"no-require-approval", true, false},
		{"login", false, false},
		{"json", false, false},
	}
	for _, tt := range tests {
		isOwn, takesValue := ownFlag(tt.name)
		if isOwn != tt.isOwn || takesValue != tt.takesValue {
			t.Errorf("ownFlag(%q) = %v, %v; want %v, %v", tt.name, isOwn, takesValue, tt.isOwn, tt.takesValue)
		}
	}
}

func TestGitTopLevel(t *testing.T) {
	root := t.TempDir()
	repo := root + "/repo"
	for _, d := range []string{repo + "/.git", repo + "/sub/deeper", root + "/plain"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct{ cwd, home, want string }{
		{repo + "/sub/deeper", "/home/u", repo},
		{repo, "/home/u", repo},
		{root + "/plain", "/home/u", root + "/plain"},
		{repo + "/sub", repo, repo + "/sub"}, // the top is the home directory: use the cwd
	}
	for _, tt := range tests {
		if got := gitTopLevel(tt.cwd, tt.home); got != tt.want {
			t.Errorf("gitTopLevel(%q, home %q) = %q, want %q", tt.cwd, tt.home, got, tt.want)
		}
	}
}
