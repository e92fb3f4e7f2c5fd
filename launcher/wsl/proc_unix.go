//go:build unix

package wsl

import (
	"os"
	"os/exec"
	"syscall"
)

// A tree is the set of processes a run started. Off Windows that is the
// process group of wsl.exe, which here is only ever a test fake or
// wsl.exe reached through WSL interop.
type tree struct{}

// prepareTree puts wsl.exe in a process group of its own and makes the
// context's cancellation kill the whole group. The command line is only
// needed on Windows.
func prepareTree(cmd *exec.Cmd, _ string, _ winPath) (*tree, error) {
	t := &tree{}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return t.kill(cmd) }
	return t, nil
}

func (t *tree) started(*exec.Cmd) error { return nil }

func (t *tree) kill(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

func (t *tree) close() {}

// exitSignal returns the signal that ended the process, or 0.
func exitSignal(st *os.ProcessState) int {
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal())
	}
	return 0
}

func defaultExe() (string, error) { return findExe("wsl.exe") }
