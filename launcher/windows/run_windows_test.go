//go:build windows

package windows

import (
	"context"
	"errors"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
)

// The test binary is also the fake child, so the tests need no host tools:
// AAR_WINTEST_CHILD selects what it does and AAR_WINTEST_ARG its argument.
func TestMain(m *testing.M) {
	switch os.Getenv("AAR_WINTEST_CHILD") {
	case "":
		os.Exit(m.Run())
	case "exit":
		n, _ := strconv.ParseUint(os.Getenv("AAR_WINTEST_ARG"), 0, 32)
		os.Exit(int(n))
	case "marker":
		os.WriteFile(os.Getenv("AAR_WINTEST_ARG"), []byte("ran"), 0o600)
		os.Exit(3)
	case "sleep":
		time.Sleep(30 * time.Second)
		os.Exit(0)
	case "spawn":
		// Leave a grandchild behind that writes the marker later: Run
		// must wait for it, since it is still in the job.
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "AAR_WINTEST_CHILD=late")
		if err := c.Start(); err != nil {
			os.Exit(9)
		}
		os.Exit(0)
	case "leak":
		// Exit 0 if the handle number in ARG is usable here, i.e. leaked.
		h, _ := strconv.ParseUint(os.Getenv("AAR_WINTEST_ARG"), 0, 64)
		if _, err := os.NewFile(uintptr(h), "leak").Write([]byte("leaked")); err != nil {
			os.Exit(7)
		}
		os.Exit(0)
	case "late":
		time.Sleep(1500 * time.Millisecond)
		os.WriteFile(os.Getenv("AAR_WINTEST_ARG"), []byte("late"), 0o600)
		os.Exit(0)
	}
	os.Exit(99)
}

func childPlan(t *testing.T, mode, arg string) *plan.Plan {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ws := testdir.New(t)
	return &plan.Plan{
		Argv:      []string{exe},
		Dir:       ws,
		Env:       append(os.Environ(), "AAR_WINTEST_CHILD="+mode, "AAR_WINTEST_ARG="+arg),
		Workspace: ws,
		Timeout:   time.Minute,
	}
}

func TestRunFailsClosedUnlessEnforced(t *testing.T) {
	enforced := Probe().Enforceable()
	marker := filepath.Join(testdir.New(t), "ran")
	p := childPlan(t, "marker", marker)
	p.MaxMemoryMB = 512
	calls := 0
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, func(plan.Enforcement) error { calls++; return nil })
	if enforced {
		if err != nil || res.ExitCode != 3 {
			t.Fatalf("Run on an enforcing Windows = %+v, %v; want exit 3", res, err)
		}
		return
	}
	// Wine (or a Windows where something is off): refuse before anything runs.
	if !errors.Is(err, plan.ErrSetup) {
		t.Fatalf("Run where the sandbox is not enforced = %+v, %v; want ErrSetup", res, err)
	}
	if calls != 0 {
		t.Errorf("started was called %d times on a refused run", calls)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the child ran although Run refused")
	}
	t.Logf("refused as it should: %v", err)
}

func TestRunBestEffort(t *testing.T) {
	marker := filepath.Join(testdir.New(t), "ran")
	p := childPlan(t, "marker", marker)
	p.BestEffort = true
	p.MaxMemoryMB = 256
	var enf plan.Enforcement
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, func(e plan.Enforcement) error { enf = e; return nil })
	if err != nil {
		t.Fatalf("Run(best effort): %v", err)
	}
	if res.ExitCode != 3 || res.TimedOut {
		t.Errorf("Run(best effort) = %+v, want exit 3", res)
	}
	if enf.Mechanism == "" {
		t.Error("started was not called")
	}
	if Probe().Enforceable() != (len(enf.Missing) == 0) {
		t.Errorf("Missing = %q disagrees with Probe", enf.Missing)
	}
	t.Logf("enforcement: %+v", enf)
}

func TestRunPassesExitCodes(t *testing.T) {
	for _, code := range []uint32{0, 42, 256, 0xC0000005} {
		p := childPlan(t, "exit", strconv.FormatUint(uint64(code), 10))
		p.BestEffort = true
		res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
		if err != nil || res.ExitCode != int(code) {
			t.Errorf("exit 0x%x: Run = %+v, %v", code, res, err)
		}
	}
}

func TestRunTimeoutTerminatesTheJob(t *testing.T) {
	p := childPlan(t, "sleep", "")
	p.BestEffort = true
	p.Timeout = 500 * time.Millisecond
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
	if err != nil || !res.TimedOut || res.ExitCode != ExitTimedOut || res.Duration > 20*time.Second {
		t.Errorf("Run with a timeout = %+v, %v; want TimedOut, exit %d", res, err, ExitTimedOut)
	}
}

func TestRunCancelTerminatesAfterGrace(t *testing.T) {
	p := childPlan(t, "sleep", "")
	p.BestEffort = true
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	res, err := Run(ctx, p, Options{UseLowIntegrity: true, Grace: 200 * time.Millisecond}, nil)
	if err != nil || res.TimedOut || uint32(res.ExitCode) != ExitInterrupted {
		t.Errorf("Run cancelled = %+v, %v; want exit 0x%x", res, err, uint32(ExitInterrupted))
	}
}

func TestRunWaitsForTheWholeTree(t *testing.T) {
	marker := filepath.Join(testdir.New(t), "late")
	p := childPlan(t, "spawn", marker)
	p.BestEffort = true
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Errorf("Run returned before the grandchild finished: %v", err)
	}
}

func TestRunInheritsOnlyStdio(t *testing.T) {
	f, err := os.Create(filepath.Join(testdir.New(t), "secret"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// An inheritable handle in aar-exec must not reach the command.
	h := syscall.Handle(f.Fd())
	if err := syscall.SetHandleInformation(h, syscall.HANDLE_FLAG_INHERIT, syscall.HANDLE_FLAG_INHERIT); err != nil {
		t.Fatal(err)
	}
	p := childPlan(t, "leak", strconv.FormatUint(uint64(h), 10))
	p.BestEffort = true
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
	if err != nil || res.ExitCode != 7 {
		t.Errorf("Run = %+v, %v; want exit 7 (handle not inherited)", res, err)
	}
}

func TestRunStartedErrorAbortsBeforeAnythingRuns(t *testing.T) {
	marker := filepath.Join(testdir.New(t), "ran")
	p := childPlan(t, "marker", marker)
	p.BestEffort = true
	boom := errors.New("audit: disk full")
	_, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, func(plan.Enforcement) error { return boom })
	if !errors.Is(err, boom) {
		t.Errorf("Run = %v, want the started error", err)
	}
	time.Sleep(200 * time.Millisecond)
	if _, err := os.Stat(marker); err == nil {
		t.Error("the child ran although started failed")
	}
}

func TestRunFindsProgramsOnPath(t *testing.T) {
	p := childPlan(t, "", "")
	p.Argv = []string{"cmd", "/c", "exit", "3"}
	p.BestEffort = true
	res, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
	if err != nil || res.ExitCode != 3 {
		t.Errorf("Run(cmd /c exit 3) = %+v, %v", res, err)
	}
}

func TestRunNotFound(t *testing.T) {
	p := childPlan(t, "exit", "0")
	p.Argv = []string{"aar-exec-no-such-program-" + strconv.Itoa(os.Getpid())}
	p.BestEffort = true
	_, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil)
	if !errors.Is(err, plan.ErrNotFound) {
		t.Errorf("Run of a missing program = %v, want ErrNotFound", err)
	}
}

func TestProbeSaysSomething(t *testing.T) {
	r := Probe()
	if !r.Available || !strings.Contains(r.String(), "windows launcher") {
		t.Errorf("Probe() = %+v", r)
	}
	t.Log(r.String())
}

// BenchmarkRunBestEffort measures a whole launch: job, read-backs, token,
// labels, suspended start, resume and the wait for the job to empty.
func BenchmarkRunBestEffort(b *testing.B) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	ws, err := os.MkdirTemp("", "aar-winbench-")
	if err != nil {
		b.Fatal(err)
	}
	defer os.Remove(ws)
	p := &plan.Plan{Argv: []string{exe}, Dir: ws, Workspace: ws, BestEffort: true, MaxMemoryMB: 512,
		Env: append(os.Environ(), "AAR_WINTEST_CHILD=exit", "AAR_WINTEST_ARG=0")}
	for b.Loop() {
		if _, err := Run(context.Background(), p, Options{UseLowIntegrity: true}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
