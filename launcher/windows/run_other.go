//go:build !windows

package windows

import (
	"context"
	"fmt"
	"runtime"

	"github.com/aar-agent/aar-exec/plan"
)

// Run runs p.Argv in a Job Object with a Low-integrity token; on this
// operating system it only returns an error wrapping [plan.ErrSetup].
func Run(ctx context.Context, p *plan.Plan, opt Options, started plan.Started) (plan.Result, error) {
	return plan.Result{}, fmt.Errorf("windows launcher: not available on %s: %w", runtime.GOOS, plan.ErrSetup)
}

// Probe reports that the Windows launcher is not available on this
// operating system.
func Probe() Report {
	return Report{Problems: []string{"not available on " + runtime.GOOS}}
}
