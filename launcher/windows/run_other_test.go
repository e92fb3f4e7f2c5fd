//go:build !windows

package windows

import (
	"context"
	"errors"
	"testing"

	"github.com/aar-agent/aar-exec/plan"
)

func TestRunRefusesOffWindows(t *testing.T) {
	called := false
	_, err := Run(context.Background(), &plan.Plan{Argv: []string{"true"}}, Options{UseLowIntegrity: true}, func(plan.Enforcement) error { called = true; return nil })
	if !errors.Is(err, plan.ErrSetup) || called {
		t.Errorf("Run = %v (started called: %v), want ErrSetup and no call", err, called)
	}
	if r := Probe(); r.Available || r.Enforceable() {
		t.Errorf("Probe() = %+v, want unavailable", r)
	}
}
