// Package local runs a command without any sandbox, for --mode local and
// for auto mode on a machine that cannot enforce one. It still supervises:
// the timeout, forwarded signals and the exit status work as in the
// sandboxed modes, so only the confinement differs.
package local

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"time"

	"github.com/aar-agent/aar-exec/launcher/internal/supervise"
	"github.com/aar-agent/aar-exec/plan"
)

// Run runs p.Argv unconfined. Only Argv, Dir, Env, Stdin and Timeout of the
// plan are used; started receives an Enforcement with mechanism "none".
func Run(ctx context.Context, p *plan.Plan, started plan.Started) (plan.Result, error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return plan.Result{}, fmt.Errorf("%w: empty command", plan.ErrSetup)
	}
	prog := p.Path
	if prog == "" {
		prog = p.Argv[0]
	}
	cmd := exec.Command(prog, p.Argv[1:]...)
	cmd.Args = p.Argv
	cmd.Env, cmd.Dir = p.Env, p.Dir
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if p.Stdin != nil {
		cmd.Stdin = p.Stdin
	}
	cmd.SysProcAttr = sysProcAttr()
	if started != nil {
		if err := started(plan.Enforcement{Mechanism: "none"}); err != nil {
			return plan.Result{}, err
		}
	}
	sigc := make(chan os.Signal, 4)
	signal.Notify(sigc, forwarded...)
	defer signal.Stop(sigc)

	begin := time.Now()
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return plan.Result{}, fmt.Errorf("%w: %s", plan.ErrNotFound, p.Argv[0])
		}
		if errors.Is(err, fs.ErrPermission) {
			return plan.Result{}, fmt.Errorf("%w: cannot execute %s: %v", plan.ErrDenied, p.Argv[0], err)
		}
		return plan.Result{}, fmt.Errorf("%w: start %s: %v", plan.ErrSetup, p.Argv[0], err)
	}
	donec := make(chan error, 1)
	go func() { donec <- cmd.Wait() }()

	err, timedOut := supervise.Wait(ctx, donec, sigc, tree{cmd.Process}, p.Timeout, supervise.Grace)
	res := plan.Result{TimedOut: timedOut, Duration: time.Since(begin)}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return res, fmt.Errorf("%w: wait: %v", plan.ErrSetup, err)
	}
	res.ExitCode, res.Signal = exitStatus(cmd.ProcessState)
	return res, nil
}

// tree is the command and what it started, as this OS can reach them.
type tree struct{ p *os.Process }

func (t tree) Signal(sig os.Signal) { signalTree(t.p, sig) }
func (t tree) Terminate()           { terminateTree(t.p) }
func (t tree) Kill()                { killTree(t.p) }
