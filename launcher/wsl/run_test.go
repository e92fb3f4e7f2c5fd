package wsl

import (
	"bytes"
	"context"
	"errors"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"github.com/aar-agent/aar-exec/internal/winargv"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
)

// runFake runs p against the fake with the world's distro "aar-sandbox",
// returning the result, the error, stdout, stderr and the enforcement
// passed to started (nil if started was not called).
type runOut struct {
	res            plan.Result
	err            error
	stdout, stderr string
	enf            *plan.Enforcement
}

func runFake(t *testing.T, w *fakeWorld, p *plan.Plan, cfg Config) runOut {
	t.Helper()
	var out, errOut bytes.Buffer
	if cfg.Exe == "" {
		cfg.Exe = fakeWSL(t)
	}
	cfg.Stdin = strings.NewReader("")
	cfg.Stdout, cfg.Stderr = &out, &errOut
	if p.Workspace == "" {
		p.Workspace = `C:\ws`
	}
	if p.Env == nil {
		p.Env = w.env()
	}
	var o runOut
	o.res, o.err = Run(context.Background(), p, cfg, func(e plan.Enforcement) error {
		o.enf = &e
		return nil
	})
	o.stdout, o.stderr = out.String(), errOut.String()
	return o
}

func TestRunExitStatus(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	tests := []struct {
		script string
		want   int
	}{
		{"exit 0", 0},
		{"exit 3", 3},
		{"exit 125", 125},
		{"echo 'Error code: Wsl/Fake' >&2; exit 254", 254},
		{"exit 255", 255},
		{"kill -9 $$", 128 + 9},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			o := runFake(t, w, &plan.Plan{Argv: []string{"sh", "-c", tt.script}, Dir: `C:\ws`}, Config{})
			if o.err != nil {
				t.Fatalf("Run: %v (stderr %q)", o.err, o.stderr)
			}
			if o.res.ExitCode != tt.want || o.res.Signal != 0 || o.res.TimedOut {
				t.Errorf("result %+v, want exit %d", o.res, tt.want)
			}
		})
	}
}

func TestRunPassesArgumentsExactly(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	hostile := []string{
		`"`, `""`, `\`, `\\`, `a\`, `a\\`, `\"`, `a b`, "tab\there", "new\nline", "cr\rlf",
		`%PATH%`, `^`, `&`, `|`, `<>`, `$HOME`, "`id`", `$(id)`, `'`, `*`, `?`, `-n`, `--`,
		`C:\Program Files\x\`, "ünïcødé ☃ 𝄞", `x"y z"\"`, `;exit 9`,
	}
	echo := []string{"sh", "-c", `for a do printf '%s\0' "$a"; done`, "sh"}
	for _, shell := range []string{"sh", "bash"} {
		if _, err := exec.LookPath(shell); err != nil {
			continue
		}
		for _, withEmpty := range []bool{false, true} {
			args := slices.Clone(hostile)
			if withEmpty {
				args = append([]string{""}, append(args, "", "")...)
			}
			argv := append(slices.Clone(echo), args...)
			o := runFake(t, w, &plan.Plan{Argv: argv, Dir: `C:\ws\sub`}, Config{Shell: shell})
			if o.err != nil || o.res.ExitCode != 0 {
				t.Fatalf("%s, empty args %v: Run: %v, %+v, stderr %q", shell, withEmpty, o.err, o.res, o.stderr)
			}
			got := strings.Split(strings.TrimSuffix(o.stdout, "\x00"), "\x00")
			if !slices.Equal(got, args) {
				t.Errorf("%s, empty args %v: command saw\n%q\nwant\n%q", shell, withEmpty, got, args)
			}
		}
	}
	// What wsl.exe received must survive its CommandLineToArgvW split.
	for _, call := range w.calls(t) {
		full := append([]string{fakeWSL(t)}, call...)
		if back := winargv.Split(winargv.Join(full)); !slices.Equal(back, full) {
			t.Errorf("command line does not round-trip:\n%q\n%q", full, back)
		}
		if i := slices.Index(call, "--exec"); i != 2 || call[0] != "-d" || call[1] != DefaultDistro {
			t.Errorf("wsl.exe args %q, want -d %s --exec ...", call, DefaultDistro)
		}
	}
}

func TestRunWorkingDirectory(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	for _, dir := range []string{`C:\ws\sub`, `c:/WS/sub/`, `sub`, `C:\ws\sub\..\sub\.`, `C:\\ws//sub`} {
		o := runFake(t, w, &plan.Plan{Argv: []string{"pwd", "-P"}, Dir: dir}, Config{})
		if o.err != nil {
			t.Fatalf("dir %q: %v", dir, o.err)
		}
		want, _ := filepath.EvalSymlinks(filepath.Join(w.root, "c", "ws", "sub"))
		if got := strings.TrimSpace(o.stdout); got != want {
			t.Errorf("dir %q: pwd %q, want %q", dir, got, want)
		}
	}
}

func TestRunCdFailsClosed(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	marker := filepath.Join(testdir.New(t), "ran")
	o := runFake(t, w, &plan.Plan{Argv: []string{"touch", marker}, Dir: `C:\ws\missing`}, Config{})
	if !errors.Is(o.err, plan.ErrSetup) || !strings.Contains(o.err.Error(), "cannot be entered") {
		t.Fatalf("err %v, want ErrSetup about the directory", o.err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the command ran although cd failed")
	}
}

func TestRunGuardDeniesBeforeSpawning(t *testing.T) {
	w := newFakeWorld(t, DefaultDistro)
	for _, dir := range []string{`C:\other`, `C:\ws2`, `C:\ws\..\x`, `..`, `\\?\C:\ws`, `\\wsl$\aar-sandbox\ws`,
		`\\server\share`, `C:\ws\sub.`, `C:\ws\sub::$INDEX_ALLOCATION`, `C:\ws\NUL`, `D:\ws`, ""} {
		o := runFake(t, w, &plan.Plan{Argv: []string{"true"}, Dir: dir}, Config{})
		if !errors.Is(o.err, plan.ErrDenied) {
			t.Errorf("dir %q: err %v, want ErrDenied", dir, o.err)
		}
		if o.enf != nil {
			t.Errorf("dir %q: started was called", dir)
		}
	}
	if _, err := os.Stat(w.argv); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("wsl.exe was spawned: %v", err)
	}
}

func TestRunTimeoutKillsTree(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	late := filepath.Join(testdir.New(t), "late")
	script := `(sleep 2; touch "$1") & sleep 30`
	o := runFake(t, w, &plan.Plan{Argv: []string{"sh", "-c", script, "sh", late}, Dir: `C:\ws`,
		Timeout: 200 * time.Millisecond}, Config{})
	if o.err != nil {
		t.Fatalf("Run: %v", o.err)
	}
	if !o.res.TimedOut {
		t.Errorf("result %+v, want TimedOut", o.res)
	}
	time.Sleep(2500 * time.Millisecond)
	if _, err := os.Stat(late); err == nil {
		t.Error("a grandchild outlived the timeout")
	}
}

func TestRunWSLFailures(t *testing.T) {
	requireUnixShell(t)
	tests := []struct {
		name    string
		distros []string
		env     []string
		cfg     Config
		want    string
	}{
		{"service crash", []string{DefaultDistro}, []string{"FAKEWSL_FAIL=1"}, Config{}, "instance has terminated"},
		{"missing distro", nil, nil, Config{}, `create it with "aar-exec wsl setup"`},
		{"missing distro, UTF-16", nil, []string{"FAKEWSL_IGNORE_UTF8=1"}, Config{Distro: "other"}, "supplied name"},
		{"no wsl.exe", nil, nil, Config{Exe: "no-such-wsl.exe"}, "is WSL installed"},
		{"crash after output", []string{DefaultDistro}, []string{"FAKEWSL_CRASH_AFTER=1", "FAKEWSL_IGNORE_UTF8=1"}, Config{},
			"instance has terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newFakeWorld(t, tt.distros...)
			// Output before a failure must not hide it.
			argv := []string{"sh", "-c", `i=0; while [ $i -lt 300 ]; do echo "line $i of output"; i=$((i+1)); done`}
			o := runFake(t, w, &plan.Plan{Argv: argv, Dir: `C:\ws`, Env: w.env(tt.env...)}, tt.cfg)
			if !errors.Is(o.err, plan.ErrSetup) || !strings.Contains(o.err.Error(), tt.want) {
				t.Fatalf("err %v, want ErrSetup containing %q", o.err, tt.want)
			}
		})
	}
}

func TestRunEnforcement(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	p := &plan.Plan{Argv: []string{"true"}, Dir: `C:\ws`, DenyRead: []string{`C:\secret`}}
	if o := runFake(t, w, p, Config{}); !errors.Is(o.err, plan.ErrSetup) || o.enf != nil {
		t.Fatalf("deny-read without best effort: err %v, started %v", o.err, o.enf != nil)
	}
	p.BestEffort, p.MaxMemoryMB = true, 512
	p.Argv = []string{"sh", "-c", "ulimit -v"}
	o := runFake(t, w, p, Config{})
	if o.err != nil || o.enf == nil {
		t.Fatalf("Run: %v", o.err)
	}
	if o.enf.Mechanism != "wsl" || !slices.Equal(o.enf.Missing, []string{"write confinement", "read denial"}) ||
		o.enf.Rlimits["as"] != 512<<20 {
		t.Errorf("enforcement %+v", *o.enf)
	}
	if got := strings.TrimSpace(o.stdout); got != "524288" {
		t.Errorf("ulimit -v in the distro is %q, want 524288", got)
	}
}

func TestRunStartedErrorAborts(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	boom := errors.New("audit log unavailable")
	_, err := Run(context.Background(), &plan.Plan{Argv: []string{"true"}, Dir: `C:\ws`, Workspace: `C:\ws`, Env: w.env()},
		Config{Exe: fakeWSL(t)}, func(plan.Enforcement) error { return boom })
	if !errors.Is(err, boom) {
		t.Fatalf("err %v, want the callback's", err)
	}
	if _, err := os.Stat(w.argv); !errors.Is(err, os.ErrNotExist) {
		t.Error("wsl.exe was spawned after started failed")
	}
}

func TestRunRejectsUnrepresentableArgs(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	for _, argv := range [][]string{{"echo", "a\x00b"}, {"echo", "\xff"}, {"echo", strings.Repeat("x", winargv.MaxCommandLine)}, nil} {
		o := runFake(t, w, &plan.Plan{Argv: argv, Dir: `C:\ws`}, Config{})
		if !errors.Is(o.err, plan.ErrSetup) || o.enf != nil {
			t.Errorf("argv %.20q: err %v, started %v", argv, o.err, o.enf != nil)
		}
	}
	for _, p := range []*plan.Plan{
		{MaxMemoryMB: -1}, {MaxMemoryMB: 1 << 40}, {MaxProcesses: -1, BestEffort: true}, {Timeout: -time.Second},
	} {
		p.Argv, p.Dir = []string{"true"}, `C:\ws`
		if o := runFake(t, w, p, Config{}); !errors.Is(o.err, plan.ErrSetup) || o.enf != nil {
			t.Errorf("plan %+v: err %v, started %v", p, o.err, o.enf != nil)
		}
	}
	if _, err := os.Stat(w.argv); !errors.Is(err, os.ErrNotExist) {
		t.Error("wsl.exe was spawned")
	}
}

func TestRunConfigFromProfile(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, "from-profile")
	prof := filepath.Join(testdir.New(t), "p.json")
	if err := os.WriteFile(prof, []byte(`{"distro":"from-profile","shell":"sh"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	o := runFake(t, w, &plan.Plan{Argv: []string{"true"}, Dir: `C:\ws`}, Config{Profile: prof})
	if o.err != nil || o.res.ExitCode != 0 {
		t.Fatalf("Run: %v %+v", o.err, o.res)
	}
	// An inline distro overrides the profile's.
	o = runFake(t, w, &plan.Plan{Argv: []string{"true"}, Dir: `C:\ws`}, Config{Profile: prof, Distro: "inline"})
	if !errors.Is(o.err, plan.ErrSetup) || !strings.Contains(o.err.Error(), `"inline"`) {
		t.Fatalf("err %v, want the inline distro to be missing", o.err)
	}
}

func TestRunStdin(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	f, err := os.CreateTemp(testdir.New(t), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString("judged script\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	o := runFake(t, w, &plan.Plan{Argv: []string{"cat"}, Dir: `C:\ws`, Stdin: f}, Config{})
	if o.err != nil || o.stdout != "judged script\n" {
		t.Fatalf("Run: %v, stdout %q", o.err, o.stdout)
	}
}

func TestRunInterrupted(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	ctx, cancel := context.WithCancel(context.Background())
	p := &plan.Plan{Argv: []string{"sleep", "30"}, Dir: `C:\ws`, Workspace: `C:\ws`, Env: w.env(), Timeout: time.Minute}
	res, err := Run(ctx, p, Config{Exe: fakeWSL(t), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard},
		func(plan.Enforcement) error { time.AfterFunc(100*time.Millisecond, cancel); return nil })
	if !errors.Is(err, context.Canceled) || res.TimedOut {
		t.Fatalf("Run = %+v, %v; want context.Canceled and no timeout", res, err)
	}
}

func TestHeadWriterKeepsHeadAndTail(t *testing.T) {
	var sink bytes.Buffer
	h := &headWriter{w: &sink, max: 8}
	for _, chunk := range []string{"0123", "4567", strings.Repeat("x", 3000), "end of ", "Error code: Wsl/E"} {
		if _, err := h.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(h.head); got != "01234567" {
		t.Errorf("head %q", got)
	}
	if len(h.tail) != tailMax || !strings.HasSuffix(string(h.tail), "end of Error code: Wsl/E") {
		t.Errorf("tail has %d bytes ending %q", len(h.tail), h.tail[max(0, len(h.tail)-30):])
	}
	if sink.Len() != 8+3000+len("end of Error code: Wsl/E") {
		t.Errorf("passed through %d bytes", sink.Len())
	}
	if !strings.Contains(h.text(), "Wsl/E") {
		t.Errorf("text %q", h.text())
	}
}

func TestRunManyArgumentsWithEmptyOnes(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	argv := []string{"sh", "-c", `printf '%s|%s|%s' "$#" "$1" "${3000}"`, "sh"}
	for i := range 3000 {
		argv = append(argv, []string{"", "x"}[i%2])
	}
	o := runFake(t, w, &plan.Plan{Argv: argv, Dir: `C:\ws`}, Config{})
	if o.err != nil || o.stdout != "3000||x" {
		t.Fatalf("Run: %v, stdout %q", o.err, o.stdout)
	}
}
