//go:build windows

package wsl

import (
	"context"
	"errors"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
)

// These tests run the Windows code paths (the exact command line through
// CreateProcess, the job object, GetFinalPathNameByHandleW) against the
// fake, which answers for a missing distro without running anything; no
// POSIX shell is needed.

func windowsWorkspace(t *testing.T) (ws, sub string) {
	t.Helper()
	ws = testdir.New(t)
	sub = filepath.Join(ws, "Sub Dir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return ws, sub
}

func TestGuardResolvesOnWindows(t *testing.T) {
	ws, sub := windowsWorkspace(t)
	for _, cwd := range []string{sub, strings.ToUpper(sub), ws, "Sub Dir", `.\Sub Dir\..`} {
		if err := Guard(cwd, ws); err != nil {
			t.Errorf("Guard(%q, %q) = %v", cwd, ws, err)
		}
	}
	for _, cwd := range []string{filepath.Join(ws, "missing"), filepath.Dir(ws)} {
		if err := Guard(cwd, ws); !errors.Is(err, plan.ErrDenied) {
			t.Errorf("Guard(%q, %q) = %v, want ErrDenied", cwd, ws, err)
		}
	}
}

func TestRunWindowsCommandLine(t *testing.T) {
	ws, sub := windowsWorkspace(t)
	w := newFakeWorld(t) // no distro: the fake records its argv and fails
	args := append([]string{"printf", "%s"}, hostileArgs()...)
	p := &plan.Plan{Argv: args, Dir: sub, Workspace: ws, Env: append(os.Environ(), w.env()[1:]...)}
	_, err := Run(context.Background(), p, Config{Exe: fakeWSL(t), Stdout: io.Discard, Stderr: io.Discard}, nil)
	if !errors.Is(err, plan.ErrSetup) || !strings.Contains(err.Error(), "aar-exec wsl setup") {
		t.Fatalf("Run: %v, want the missing-distro error", err)
	}
	dir, err := guard(sub, ws)
	if err != nil {
		t.Fatal(err)
	}
	want := buildArgs(settings{distro: DefaultDistro, shell: DefaultShell}, 0, translate(dir, defaultMountRoot), args)
	calls := w.calls(t)
	if len(calls) != 1 || !slices.Equal(calls[0], want) {
		t.Errorf("wsl.exe received\n%q\nwant\n%q", calls, want)
	}
}

func TestRunWindowsTimeout(t *testing.T) {
	ws, _ := windowsWorkspace(t)
	w := newFakeWorld(t, DefaultDistro)
	p := &plan.Plan{Argv: []string{"true"}, Dir: ws, Workspace: ws, Timeout: 300 * time.Millisecond,
		Env: append(os.Environ(), append(w.env()[1:], "FAKEWSL_SLEEP_MS=60000")...)}
	start := time.Now()
	res, err := Run(context.Background(), p, Config{Exe: fakeWSL(t), Stdout: io.Discard, Stderr: io.Discard}, nil)
	if err != nil || !res.TimedOut {
		t.Fatalf("Run = %+v, %v; want a timeout", res, err)
	}
	if time.Since(start) > 30*time.Second {
		t.Errorf("the job was not terminated: Run took %v", time.Since(start))
	}
}

// hostileArgs are arguments that must cross wsl.exe's command line intact.
func hostileArgs() []string {
	return []string{
		"", " ", "\t", `"`, `""`, `"""`, `\`, `\\`, `\"`, `a b`, "new\nline",
		`%PATH%`, `^`, `&`, `|`, `<`, `>`, `$HOME`, "`id`", `$(id)`, `'`, `--exec`, `--`,
		`C:\Program Files\x\`, "ünïcødé", "☃ 𝄞",
	}
}
