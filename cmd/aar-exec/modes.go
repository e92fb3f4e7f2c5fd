package main

import (
	"context"

	"github.com/aar-agent/aar-exec/launcher/windows"
	"github.com/aar-agent/aar-exec/launcher/wsl"
	"github.com/aar-agent/aar-exec/plan"
)

func runWindows(ctx context.Context, s *settings, p *plan.Plan, started plan.Started) (plan.Result, error) {
	return windows.Run(ctx, p, windows.Options{UseLowIntegrity: s.cfg.Safety.Sandbox.Windows.UseLowIntegrity}, started)
}

func runWSL(ctx context.Context, s *settings, p *plan.Plan, started plan.Started) (plan.Result, error) {
	return wsl.Run(ctx, p, s.wslConfig(), started)
}
