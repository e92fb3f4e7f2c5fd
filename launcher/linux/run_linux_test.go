package linux

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
	"golang.org/x/sys/unix"
)

func requireLandlock(t *testing.T) {
	t.Helper()
	if abi := landlockABI(); abi < minABI {
		t.Skipf("this kernel has Landlock ABI %d; the launcher needs %d", abi, minABI)
	}
}

// run runs a shell command confined to a fresh workspace.
func run(t *testing.T, script string, edit func(*plan.Plan)) (plan.Result, error) {
	t.Helper()
	ws := t.TempDir()
	p := &plan.Plan{Argv: []string{"sh", "-c", script}, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"}, Workspace: ws}
	if edit != nil {
		edit(p)
	}
	return Run(context.Background(), p, nil)
}

func TestRunConfinesWritesAndLeavesTheSupervisorFree(t *testing.T) {
	requireLandlock(t)
	outside := filepath.Join(t.TempDir(), "outside")
	res, err := run(t, "echo in > inside && echo out > "+outside, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode == 0 {
		t.Errorf("the write outside the workspace succeeded")
	}
	if _, err := os.Stat(outside); err == nil {
		t.Errorf("%s exists", outside)
	}
	// Only the forking thread was restricted: the supervisor still writes
	// anywhere, as it must to write the audit line after the command.
	if err := os.WriteFile(outside, []byte("supervisor"), 0o600); err != nil {
		t.Errorf("the supervisor lost its own rights: %v", err)
	}
}

func TestRunStatusAndSignal(t *testing.T) {
	requireLandlock(t)
	tests := []struct {
		script string
		want   plan.Result
	}{
		{"exit 0", plan.Result{}},
		{"exit 42", plan.Result{ExitCode: 42}},
		{"kill -TERM $$", plan.Result{Signal: 15}},
	}
	for _, tt := range tests {
		res, err := run(t, tt.script, nil)
		if err != nil {
			t.Fatalf("%q: %v", tt.script, err)
		}
		if res.ExitCode != tt.want.ExitCode || res.Signal != tt.want.Signal {
			t.Errorf("%q: got exit %d signal %d, want %d %d", tt.script, res.ExitCode, res.Signal, tt.want.ExitCode, tt.want.Signal)
		}
	}
}

func TestRunErrors(t *testing.T) {
	requireLandlock(t)
	_, err := run(t, "true", func(p *plan.Plan) { p.Argv = []string{"no-such-program-xyz"} })
	if !errors.Is(err, plan.ErrNotFound) {
		t.Errorf("missing program: got %v, want ErrNotFound", err)
	}
	_, err = run(t, "true", func(p *plan.Plan) { p.Argv = nil })
	if !errors.Is(err, plan.ErrSetup) {
		t.Errorf("empty argv: got %v, want ErrSetup", err)
	}
	_, err = run(t, "true", func(p *plan.Plan) { p.Workspace = "/nonexistent-workspace" })
	if !errors.Is(err, plan.ErrSetup) {
		t.Errorf("missing workspace: got %v, want ErrSetup", err)
	}
}

// A writable path reached through a symlink fails the ruleset, which
// refuses symlinks anywhere in a path (the mount layer would follow it):
// the run must end with the ruleset's error, write no start record and
// run nothing.
func TestRulesetErrorStopsTheRun(t *testing.T) {
	requireLandlock(t)
	ws, real := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	p := &plan.Plan{Argv: []string{"sh", "-c", "touch ran"}, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"},
		Workspace: ws, Writable: []string{filepath.Join(link, "sub")}}
	started := false
	_, err := Run(context.Background(), p, func(plan.Enforcement) error { started = true; return nil })
	if !errors.Is(err, plan.ErrSetup) || !strings.Contains(err.Error(), "landlock: grant") {
		t.Fatalf("got %v, want the ruleset's setup error", err)
	}
	if started {
		t.Errorf("a start record was written for a run that never started")
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Errorf("the command ran although the ruleset failed")
	}
}

func TestStartedErrorAbortsBeforeAnythingRuns(t *testing.T) {
	requireLandlock(t)
	ws := t.TempDir()
	stop := errors.New("audit log full")
	p := &plan.Plan{Argv: []string{"sh", "-c", "touch ran"}, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"}, Workspace: ws}
	_, err := Run(context.Background(), p, func(plan.Enforcement) error { return stop })
	if !errors.Is(err, stop) {
		t.Fatalf("got %v, want the started error", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran")); err == nil {
		t.Errorf("the command ran although started failed")
	}
}

func TestTimeoutKillsTheTree(t *testing.T) {
	requireLandlock(t)
	begin := time.Now()
	res, err := run(t, "sleep 60 & sleep 61", func(p *plan.Plan) { p.Timeout = 100 * time.Millisecond })
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut {
		t.Errorf("TimedOut is false after %v", time.Since(begin))
	}
	if kids := children(); len(kids) > 0 {
		t.Errorf("processes outlived the command: %v", kids)
	}
}

// A chain of background processes deeper than killDescendants has rounds
// dies all the same: each round kills the whole tree, not one level.
func TestDeepChainDies(t *testing.T) {
	requireLandlock(t)
	defer func(n int) { killRounds = n }(killRounds)
	killRounds = 10
	// Each link starts the next in the background and waits; the last
	// writes its pid, and the command ends once it has.
	script := `printf '%s\n' 'if [ "$1" -gt 0 ]; then sh ./link $(($1 - 1)) & wait; else echo $$ > last.tmp; mv last.tmp last; exec sleep 60; fi' > link
setsid sh ./link 40 </dev/null >/dev/null 2>&1 &
while [ ! -s last ]; do sleep 0.05; done`
	ws := t.TempDir()
	p := &plan.Plan{Argv: []string{"sh", "-c", script}, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"}, Workspace: ws}
	if _, err := Run(context.Background(), p, nil); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(ws, "last"))
	if err != nil {
		t.Fatal(err)
	}
	last, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("no pid from the chain: %q", b)
	}
	// Under load a killed process takes a moment to die, and may then be
	// ours to reap; what is still alive after that outlived the command.
	deadline := time.Now().Add(2 * time.Second)
	for {
		for {
			if pid, _ := unix.Wait4(-1, nil, unix.WNOHANG|unix.WALL, nil); pid <= 0 {
				break
			}
		}
		if len(children()) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := unix.Kill(last, 0); err == nil {
		unix.Kill(last, unix.SIGKILL)
		t.Errorf("the last link of the chain (pid %d) outlived the command", last)
	}
	if kids := children(); len(kids) > 0 {
		t.Errorf("processes outlived the command: %v", kids)
	}
}

func TestReadDenial(t *testing.T) {
	requireLandlock(t)
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret")
	sibling := filepath.Join(dir, "sibling")
	for _, f := range []string{secret, sibling} {
		if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := run(t, "cat "+sibling+" && ! cat "+secret, func(p *plan.Plan) { p.DenyRead = []string{secret} })
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Errorf("read denial: the sibling was unreadable or the secret readable (exit %d)", res.ExitCode)
	}
}

func TestReadDenialKeepsTheShellsDevices(t *testing.T) {
	requireLandlock(t)
	script := `echo x > /dev/null && head -c1 /dev/zero >/dev/null && head -c1 /dev/urandom >/dev/null || exit 1
for d in /dev/vda /dev/sda /dev/nvme0n1 /dev/loop0; do [ -b $d ] && head -c1 $d >/dev/null 2>&1 && exit 2; done; exit 0`
	res, err := run(t, script, func(p *plan.Plan) { p.DenyRead = []string{"/nonexistent-secret"} })
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Errorf("exit %d: 1 = a device a shell needs failed, 2 = a raw disk was readable", res.ExitCode)
	}
}

// The /proc scan finds the same children as the children files, so the
// sweep still works on a kernel without CONFIG_PROC_CHILDREN.
func TestChildrenByScanAgrees(t *testing.T) {
	cmd := exec.Command("sleep", "5")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	want := cmd.Process.Pid
	for _, got := range [][]int{children(), childrenByScan()} {
		if !slices.Contains(got, want) {
			t.Errorf("child %d missing from %v", want, got)
		}
	}
}

// The main thread leads the thread group: kill(2) and /proc/PID judge the
// supervisor by its credentials, so it must never be the restricted one,
// whichever thread the runtime happens to start the launcher's goroutine on.
func TestRunNeverRestrictsTheMainThread(t *testing.T) {
	requireLandlock(t)
	if mainThreadNoNewPrivs(t) {
		t.Skip("this test process already runs with no_new_privs (inside a sandbox?)")
	}
	for i := 0; i < 30; i++ {
		res, err := run(t, `kill -0 $PPID 2>/dev/null && exit 3; exit 0`, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.ExitCode == 3 && landlockABI() >= 6 {
			t.Fatalf("run %d: the command could signal its supervisor", i)
		}
		if mainThreadNoNewPrivs(t) {
			t.Fatalf("run %d restricted the main thread", i)
		}
	}
}

func mainThreadNoNewPrivs(t *testing.T) bool {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/status", os.Getpid()))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(string(b), "NoNewPrivs:\t1")
}
