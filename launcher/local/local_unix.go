//go:build unix

package local

import (
	"os"
	"syscall"
)

var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func signalTree(p *os.Process, sig os.Signal) { syscall.Kill(-p.Pid, sig.(syscall.Signal)) }
func terminateTree(p *os.Process)             { syscall.Kill(-p.Pid, syscall.SIGTERM) }
func killTree(p *os.Process)                  { syscall.Kill(-p.Pid, syscall.SIGKILL); p.Kill() }

func exitStatus(s *os.ProcessState) (code, sig int) {
	ws := s.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return 0, int(ws.Signal())
	}
	return ws.ExitStatus(), 0
}
