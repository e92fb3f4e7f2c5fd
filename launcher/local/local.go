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
	"time"

	"github.com/aar-agent/aar-exec/internal/phase"
	"github.com/aar-agent/aar-exec/launcher/internal/supervise"
	"github.com/aar-agent/aar-exec/plan"
)

// Run runs p.Argv unconfined. Only Argv, Path, Dir, Env, Stdin and Timeout
// of the plan are used; started receives an Enforcement with mechanism
// "none".
func Run(ctx context.Context, p *plan.Plan, started plan.Started) (plan.Result, error) {
	if len(p.Argv) == 0 || p.Argv[0] == "" {
		return plan.Result{}, fmt.Errorf("%w: empty command", plan.ErrSetup)
	}
	prog := p.Path
	if prog == "" {
		prog = p.Argv[0]
	}
	// The signal relay gets ready while the start record is written.
	relay := supervise.StartRelay(forwarded...)
	defer relay.Stop()
	if started != nil {
		if err := started(plan.Enforcement{Mechanism: "none"}); err != nil {
			return plan.Result{}, err
		}
	}
	relay.Ready()

	begin := time.Now()
	c, err := start(prog, p)
	phase.Mark("forked")
	if err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
			return plan.Result{}, fmt.Errorf("%w: %s", plan.ErrNotFound, p.Argv[0])
		}
		if errors.Is(err, fs.ErrPermission) {
			return plan.Result{}, fmt.Errorf("%w: cannot execute %s: %v", plan.ErrDenied, p.Argv[0], err)
		}
		return plan.Result{}, fmt.Errorf("%w: start %s: %v", plan.ErrSetup, p.Argv[0], err)
	}
	donec := make(chan ended, 1)
	go func() {
		e := c.wait()
		phase.Mark("reaped")
		donec <- e
	}()

	e, timedOut := supervise.Wait(ctx, donec, relay.C, c, p.Timeout, supervise.Grace)
	res := plan.Result{TimedOut: timedOut, Duration: time.Since(begin)}
	if e.err != nil {
		return res, fmt.Errorf("%w: wait: %v", plan.ErrSetup, e.err)
	}
	res.ExitCode, res.Signal = e.code, e.signal
	return res, nil
}

// ended is how the command ended: its exit code, or the signal that
// killed it, or why waiting for it failed.
type ended struct {
	code, signal int
	err          error
}

// stdin is the command's standard input: the plan's, or ours.
func stdin(p *plan.Plan) *os.File {
	if p.Stdin != nil {
		return p.Stdin
	}
	return os.Stdin
}
