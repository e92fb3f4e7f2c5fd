//go:build unix

package local

import (
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/aar-agent/aar-exec/launcher/internal/supervise"
	"github.com/aar-agent/aar-exec/plan"
)

var forwarded = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// A child is the started command, the leader of its own session and
// process group.
type child struct{ supervise.Group }

// start forks and execs with syscall.ForkExec rather than os/exec: on
// Linux, os probes pidfd support by forking and reaping a throw-away child
// on first use, a whole extra process per launch, and wait4 is all this
// launcher needs.
func start(prog string, p *plan.Plan) (child, error) {
	path := prog
	if !strings.Contains(prog, "/") {
		var err error
		if path, err = exec.LookPath(prog); err != nil {
			return child{}, err
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
		return child{}, &os.PathError{Op: "fork/exec", Path: path, Err: err}
	}
	return child{supervise.Group(pid)}, nil
}

func (c child) wait() ended {
	ws, err := supervise.Reap(int(c.Group))
	switch {
	case err != nil:
		return ended{err: err}
	case ws.Signaled():
		return ended{signal: int(ws.Signal())}
	}
	return ended{code: ws.ExitStatus()}
}
