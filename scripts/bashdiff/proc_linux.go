package main

import (
	"os/exec"
	"syscall"
)

// killGroup makes the timeout kill bwrap's whole process group, not just
// bwrap; the sandbox's own processes die with it (--die-with-parent and
// the pid namespace).
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
