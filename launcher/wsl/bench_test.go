package wsl

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/aar-agent/aar-exec/plan"
)

// BenchmarkRun measures one whole run of "true" through the fake wsl.exe;
// BenchmarkFakeDirect runs the fake with the same arguments without the
// launcher, so the difference is the launcher's own cost.
func BenchmarkRun(b *testing.B) {
	if _, err := exec.LookPath("sh"); err != nil {
		b.Skip("no sh")
	}
	w := newFakeWorld(b, DefaultDistro)
	p := &plan.Plan{Argv: []string{"true"}, Dir: `C:\ws\sub`, Workspace: `C:\ws`, Env: w.env()}
	p.Env = p.Env[:len(p.Env)-1] // no argv log
	cfg := Config{Exe: fakeWSL(b), Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	for b.Loop() {
		res, err := Run(context.Background(), p, cfg, nil)
		if err != nil || res.ExitCode != 0 {
			b.Fatal(res, err)
		}
	}
}

func BenchmarkFakeDirect(b *testing.B) {
	if _, err := exec.LookPath("sh"); err != nil {
		b.Skip("no sh")
	}
	w := newFakeWorld(b, DefaultDistro)
	s := settings{distro: DefaultDistro, shell: "sh"}
	args := buildArgs(s, 0, "/mnt/c/ws/sub", []string{"true"})
	env := w.env()
	env = env[:len(env)-1]
	for b.Loop() {
		cmd := exec.Command(fakeWSL(b), args...)
		cmd.Env = env
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
	}
}
