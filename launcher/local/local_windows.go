//go:build windows

package local

import (
	"os"
	"syscall"
)

var forwarded = []os.Signal{os.Interrupt}

func sysProcAttr() *syscall.SysProcAttr { return nil }

// Windows delivers console Ctrl-C to the whole console group already.
func signalTree(p *os.Process, sig os.Signal) {}
func terminateTree(p *os.Process)             { p.Kill() }
func killTree(p *os.Process)                  { p.Kill() }

func exitStatus(s *os.ProcessState) (code, sig int) { return s.ExitCode(), 0 }
