// Package testscripts runs the real aar-exec binary through user sessions
// written as testscript files (*.txtar), under real Landlock.
package testscripts

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/aar-agent/aar-exec/launcher/linux"
	"github.com/rogpeppe/go-internal/testscript"
)

// binDir holds the aar-exec binary built once for all scripts.
var binDir string

func TestMain(m *testing.M) {
	os.Exit(buildAndRun(m))
}

func buildAndRun(m *testing.M) int {
	dir, err := os.MkdirTemp("", "aar-exec-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	build := exec.Command("go", "build", "-o", filepath.Join(dir, "aar-exec"), "../cmd/aar-exec")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build aar-exec: %v\n%s", err, out)
		return 1
	}
	binDir = dir
	return m.Run()
}

func TestScripts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skipf("the end-to-end scripts drive the Linux launcher; %s has none", runtime.GOOS)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 ".",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("UPDATE_SCRIPTS") != "",
		Setup: func(env *testscript.Env) error {
			work := env.WorkDir
			home := filepath.Join(work, "home")
			for _, d := range []string{home, filepath.Join(work, "ws"), filepath.Join(work, "outside")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					return err
				}
			}
			env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			env.Setenv("HOME", home)
			env.Setenv("XDG_STATE_HOME", filepath.Join(work, "state"))
			env.Setenv("AAR_EXEC", filepath.Join(binDir, "aar-exec"))
			// Tools the scripts drive keep their caches out of the workspace.
			env.Setenv("GOCACHE", filepath.Join(work, "state", "gocache"))
			env.Setenv("GOFLAGS", "-buildvcs=false")
			for _, name := range []string{"GOROOT", "GOPATH", "GOMODCACHE"} {
				if v := os.Getenv(name); v != "" {
					env.Setenv(name, v)
				}
			}
			return nil
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "landlock":
				return linux.Probe().Enforceable, nil
			case "root":
				return os.Geteuid() == 0, nil
			}
			if tool, ok := strings.CutPrefix(cond, "tool:"); ok {
				_, err := exec.LookPath(tool)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"killedby": killedBy,
		},
	})
}

// killedBy runs a command and checks that it died from the named signal,
// as a caller of aar-exec sees it: "killedby TERM aar-exec -c 'kill $$'".
func killedBy(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: killedby SIGNAL command args...")
	}
	want := args[0]
	prog, err := lookPathIn(args[1], ts.Getenv("PATH"))
	if err != nil {
		ts.Fatalf("%v", err)
	}
	cmd := exec.Command(prog, args[2:]...)
	cmd.Dir = ts.Getenv("PWD")
	cmd.Env = environ(ts)
	err = cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		ts.Fatalf("%s: want death by SIG%s, got %v", args[1], want, err)
	}
	ws := ee.Sys().(syscall.WaitStatus)
	got := ""
	if ws.Signaled() {
		got = strings.TrimPrefix(sigName(ws.Signal()), "SIG")
	}
	if (got == want) == neg {
		ts.Fatalf("%s: died by %q (exit %d), want SIG%s", args[1], got, ws.ExitStatus(), want)
	}
}

func sigName(s syscall.Signal) string {
	switch s {
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGKILL:
		return "SIGKILL"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGSEGV:
		return "SIGSEGV"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return s.String()
}

func environ(ts *testscript.TestScript) []string {
	var env []string
	for _, name := range []string{"PATH", "HOME", "XDG_STATE_HOME", "AAR_EXEC", "TMPDIR", "WORK", "GOCACHE", "GOFLAGS", "GOROOT", "GOPATH", "GOMODCACHE"} {
		if v := ts.Getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	return env
}

// lookPathIn finds prog in the script's PATH, not the test process's.
func lookPathIn(prog, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		if p, err := exec.LookPath(filepath.Join(dir, prog)); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s not found in the script's PATH", prog)
}
