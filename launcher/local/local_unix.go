//go:build unix

package local

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/aar-agent/aar-exec/plan"
)

var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// A child is the started command, the leader of its own session and
// process group.
type child int

// start forks and execs with syscall.ForkExec rather than os/exec: on
// Linux, os probes pidfd support by forking and reaping a throw-away child
// on first use, a whole extra process per launch, and wait4 is all this
// launcher needs.
func start(prog string, p *plan.Plan) (child, error) {
	path := prog
	if !strings.Contains(prog, "/") {
		var err error
		if path, err = exec.LookPath(prog); err != nil {
			return 0, err
		}
	}
	env := p.Env
	if env == nil {
		env = os.Environ() // as exec.Cmd does
	}
	pid, err := syscall.ForkExec(path, p.Argv, &syscall.ProcAttr{
		Dir:   p.Dir,
		Env:   env,
		Files: []uintptr{stdin(p).Fd(), os.Stdout.Fd(), os.Stderr.Fd()},
		Sys:   &syscall.SysProcAttr{Setsid: true},
	})
	if err != nil {
		return 0, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	return child(pid), nil
}

func (c child) wait() ended {
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(int(c), &ws, 0, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return ended{err: err}
		}
		break
	}
	if ws.Signaled() {
		return ended{signal: int(ws.Signal())}
	}
	return ended{code: ws.ExitStatus()}
}

func (c child) Signal(sig os.Signal) { syscall.Kill(-int(c), sig.(syscall.Signal)) }
func (c child) Terminate()           { syscall.Kill(-int(c), syscall.SIGTERM) }

// Kill kills the group only: the command leads it for good (a session
// leader cannot leave its group), and a kill aimed at its bare pid could
// reach another process once the pid is reaped and reused.
func (c child) Kill() { syscall.Kill(-int(c), syscall.SIGKILL) }
