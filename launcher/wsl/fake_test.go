package wsl

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// fakeDir holds the fake wsl.exe once built; TestMain removes it.
var fakeDir string

// buildFake builds the fake wsl.exe at most once per test process, and only
// when a test needs it, so that fuzzing workers, which are killed rather
// than returning from TestMain, neither pay for it nor leave it behind.
var buildFake = sync.OnceValues(func() (string, error) {
	// Under Wine no Go toolchain is reachable, so the lane builds the
	// fake beforehand and names it here.
	if exe := os.Getenv("AAR_TEST_FAKEWSL"); exe != "" {
		return exe, nil
	}
	dir, err := os.MkdirTemp("", "fakewsl")
	if err != nil {
		return "", err
	}
	fakeDir = dir
	exe := filepath.Join(dir, "wsl.exe")
	goTool, err := exec.LookPath("go")
	if err != nil {
		return "", err
	}
	out, err := exec.Command(goTool, "build", "-o", exe, "./internal/fakewsl").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, out)
	}
	return exe, nil
})

// fakeWSL returns the path of the fake wsl.exe.
func fakeWSL(t testing.TB) string {
	t.Helper()
	exe, err := buildFake()
	if err != nil {
		t.Fatalf("build the fake wsl.exe: %v", err)
	}
	return exe
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fakeDir != "" {
		if err := testdir.Remove(fakeDir); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// A fakeWorld is one test's view of the fake: a Windows drive C: rooted in
// a temp dir, a state file of registered distros and an argv log.
type fakeWorld struct {
	root, state, argv string
}

func newFakeWorld(t testing.TB, distros ...string) *fakeWorld {
	t.Helper()
	tmp := testdir.New(t)
	w := &fakeWorld{
		root:  filepath.Join(tmp, "drives"),
		state: filepath.Join(tmp, "state.json"),
		argv:  filepath.Join(tmp, "argv.jsonl"),
	}
	if err := os.MkdirAll(filepath.Join(w.root, "c", "ws", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	st := map[string]any{"distros": map[string]any{}}
	for _, d := range distros {
		st["distros"].(map[string]any)[d] = map[string]string{"dir": tmp, "version": "2"}
	}
	data, _ := json.Marshal(st)
	if err := os.WriteFile(w.state, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return w
}

// env is the environment the fake needs, for plan.Plan.Env.
func (w *fakeWorld) env(extra ...string) []string {
	return append([]string{
		"PATH=" + os.Getenv("PATH"),
		"FAKEWSL_ROOT=" + w.root,
		"FAKEWSL_STATE=" + w.state,
		"FAKEWSL_ARGV=" + w.argv,
	}, extra...)
}

// setenv puts the fake's variables in the test process's environment, for
// the lifecycle functions, which pass aar-exec's own environment on.
func (w *fakeWorld) setenv(t *testing.T) {
	t.Setenv("FAKEWSL_ROOT", w.root)
	t.Setenv("FAKEWSL_STATE", w.state)
	t.Setenv("FAKEWSL_ARGV", w.argv)
}

// calls returns the argument lists the fake was called with.
func (w *fakeWorld) calls(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open(w.argv)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var args []string
		if err := json.Unmarshal(sc.Bytes(), &args); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, args)
	}
	return calls
}

func requireUnixShell(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake runs the script with a local POSIX sh")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh in PATH")
	}
}
