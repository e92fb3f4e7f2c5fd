package shellargs

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// requireBash returns the path of a real bash 5, skipping the test without
// one unless REQUIRE_BASH is set.
func requireBash(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("bash")
	if err == nil && runtime.GOOS != "windows" {
		var out []byte
		out, err = exec.Command(path, "-c", "echo $BASH_VERSION").Output()
		if err == nil && !strings.HasPrefix(string(out), "5.") {
			t.Logf("bash %s is not bash 5", bytes.TrimSpace(out))
		}
		if err == nil {
			return path
		}
	}
	if os.Getenv("REQUIRE_BASH") != "" {
		t.Fatalf("no usable bash: %v", err)
	}
	t.Skipf("no usable bash: %v", err)
	return ""
}

// ranBash is what one bash run printed and how it ended.
type ranBash struct {
	stdout, stderr string
	code           int
}

// runBash runs bash at path with argv in dir, feeding probe on stdin.
// probeDir makes a directory for bash to run in, holding an empty home
// and script.sh, which runs the probe.
func probeDir(t *testing.T) (dir, home string) {
	t.Helper()
	dir = t.TempDir()
	home = filepath.Join(dir, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "script.sh"), []byte(probe+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, home
}

func runBash(t *testing.T, path string, argv []string, dir, home string) ranBash {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Args = argv
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C", "TERM=dumb", "HISTFILE=/dev/null"}
	cmd.Stdin = strings.NewReader(probe + "\n")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%q timed out", argv)
	}
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %q: %v", argv, err)
		}
		code = ee.ExitCode()
	}
	return ranBash{stdout.String(), dropJobControlNoise(stderr.String()), code}
}

// dropJobControlNoise removes what bash -i says about a missing terminal:
// it names a process group, which differs between runs.
func dropJobControlNoise(s string) string {
	var keep []string
	for line := range strings.Lines(s) {
		if !strings.Contains(line, "cannot set terminal process group") &&
			!strings.Contains(line, "no job control in this shell") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

// TestConfirmWithBash runs every argv of parseCases through real bash twice,
// once as the client gave it and once as ShellArgv rebuilt it, and checks
// that bash saw the same $0, $*, $-, options and shopts, and ended the same.
// The original runs with argv0 "bash" (or "-bash" for a login name), as
// ShellArgv's does, so $0 compares.
func TestConfirmWithBash(t *testing.T) {
	bash := requireBash(t)
	for _, tc := range parseCases() {
		if tc.notBash || tc.want == nil {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir, home := probeDir(t)
			argv0 := tc.argv0
			if argv0 == "" {
				argv0 = "aar-exec"
			}
			inv, err := Parse(argv0, tc.args, testOwn)
			if err != nil {
				t.Fatal(err)
			}
			orig := "bash"
			if strings.HasPrefix(filepath.Base(argv0), "-") {
				orig = "-bash"
			}
			want := runBash(t, bash, append([]string{orig}, tc.args...), dir, home)
			got := runBash(t, bash, inv.ShellArgv(bash), dir, home)
			if got != want {
				t.Errorf("bash %q\n  printed %q %q, exit %d\nbut bash %q\n  printed %q %q, exit %d",
					tc.args, want.stdout, want.stderr, want.code,
					inv.ShellArgv(bash)[1:], got.stdout, got.stderr, got.code)
			}
			if want.stdout == "" && want.stderr == "" && !strings.Contains(tc.name, "noexec") {
				t.Errorf("bash %q printed nothing: the probe did not run", tc.args)
			}
		})
	}
}

// TestBashRejectsWhatParseRejects checks, for errors that mirror bash's own,
// that real bash refuses the same argv with its usage status 2.
func TestBashRejectsWhatParseRejects(t *testing.T) {
	bash := requireBash(t)
	for _, args := range [][]string{
		{"-c"},
		{"-c", "--"},
		{"-q", "-c", "x"},
		{"-o", "pipefial", "-c", "x"},
		{"-O", "extglib", "-c", "x"},
		{"-l", "--norc", "-c", "x"},
		{"--rcfile=x", "-c", "x"},
		{"--frobnicate", "-c", "x"},
	} {
		if _, err := Parse("bash", args, nil); err == nil {
			t.Errorf("Parse accepted %q", args)
		}
		home := t.TempDir()
		if r := runBash(t, bash, append([]string{"bash"}, args...), home, home); r.code != 2 {
			t.Errorf("bash %q exited %d, want 2", args, r.code)
		}
	}
}

// TestRandomArgvWithBash draws argv from the words clients use, in random
// orders, and checks Parse against real bash: what Parse accepts must run
// the same way from ShellArgv as from the original argv, and what Parse
// rejects as bash would must make bash refuse it too.
func TestRandomArgvWithBash(t *testing.T) {
	if testing.Short() {
		t.Skip("runs bash 800 times")
	}
	bash := requireBash(t)
	words := []string{"-c", "-l", "-e", "-u", "+e", "-x", "-o", "pipefail", "+o", "-co", "-O", "extglob",
		"--", "-", "--norc", "--login", "-norc", "-lc", "-ec", "-q", probe, probe, "zero", "script.sh"}
	rng := rand.New(rand.NewPCG(5, 2026))
	dir, home := probeDir(t)
	accepted := 0
	for range 400 {
		args := make([]string, 1+rng.IntN(5))
		for i := range args {
			args[i] = words[rng.IntN(len(words))]
		}
		want := runBash(t, bash, append([]string{"bash"}, args...), dir, home)
		inv, err := Parse("bash", args, nil)
		if err != nil {
			ue := err.(*UsageError)
			listsOptions := strings.Contains(ue.Reason, "requires an argument") && strings.ContainsAny(ue.Arg, "oO")
			// bash exits 2 on a usage error, or 1 once -e is on.
			refused := want.code != 0 && strings.Contains(want.stderr, "option")
			if !refused && !listsOptions {
				t.Errorf("Parse(%q) failed (%v), but bash ran it: exit %d, %q", args, err, want.code, want.stdout)
			}
			continue
		}
		accepted++
		got := runBash(t, bash, inv.ShellArgv(bash), dir, home)
		if got != want {
			t.Errorf("bash %q\n  printed %q %q, exit %d\nbut bash %q\n  printed %q %q, exit %d",
				args, want.stdout, want.stderr, want.code,
				inv.ShellArgv(bash)[1:], got.stdout, got.stderr, got.code)
		}
	}
	t.Logf("%d of 400 argv accepted and confirmed", accepted)
}
