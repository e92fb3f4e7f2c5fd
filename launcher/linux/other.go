//go:build !linux

package linux

import (
	"context"
	"fmt"
	"runtime"

	"github.com/aar-agent/aar-exec/plan"
)

// Run is only available on Linux.
func Run(ctx context.Context, p *plan.Plan, started plan.Started) (plan.Result, error) {
	return plan.Result{}, fmt.Errorf("%w: the linux launcher is not available on %s", plan.ErrSetup, runtime.GOOS)
}

// Available reports false: Landlock is Linux's.
func Available() bool { return false }

// Probe reports that Landlock is not available on this OS.
func Probe() Report { return Report{MinABI: 3} }
