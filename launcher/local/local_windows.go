//go:build windows

package local

import (
	"errors"
	"os"
	"os/exec"

	"github.com/aar-agent/aar-exec/plan"
)

var forwarded = []os.Signal{os.Interrupt}

// A child is the started command.
type child struct{ cmd *exec.Cmd }

func start(prog string, p *plan.Plan) (child, error) {
	cmd := exec.Command(prog, p.Argv[1:]...)
	cmd.Args = p.Argv
	cmd.Env, cmd.Dir = p.Env, p.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin(p), os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		return child{}, err
	}
	return child{cmd}, nil
}

func (c child) wait() ended {
	err := c.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return ended{err: err}
	}
	return ended{code: c.cmd.ProcessState.ExitCode()}
}

// Windows delivers console Ctrl-C to the whole console group already.
func (c child) Signal(sig os.Signal) {}
func (c child) Terminate()           { c.cmd.Process.Kill() }
func (c child) Kill()                { c.cmd.Process.Kill() }
