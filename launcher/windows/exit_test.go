package windows

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aar-agent/aar-exec/plan"
)

func TestStartError(t *testing.T) {
	tests := []struct {
		errno uint32
		want  error
	}{
		{errFileNotFound, plan.ErrNotFound},
		{errPathNotFound, plan.ErrNotFound},
		{errInvalidName, plan.ErrNotFound},
		{errAccessDenied, plan.ErrDenied},
		{errBadExeFormat, plan.ErrDenied},
		{errExeMachineType, plan.ErrDenied},
		{errElevationRequired, plan.ErrDenied},
		{errDirectory, plan.ErrSetup},
		{1816, plan.ErrSetup}, // ERROR_NOT_ENOUGH_QUOTA
	}
	for _, tt := range tests {
		err := startError(`C:\x.exe`, tt.errno, errors.New("text"))
		if !errors.Is(err, tt.want) {
			t.Errorf("startError(%d) = %v, want it to wrap %v", tt.errno, err, tt.want)
		}
	}
}

// asInt converts at run time, as result does, so the table also compiles
// where int is 32 bits.
func asInt(c uint32) int { return int(c) }

func TestResult(t *testing.T) {
	tests := []struct {
		code uint32
		why  ending
		want plan.Result
	}{
		{0, endedNormally, plan.Result{ExitCode: 0, Duration: time.Second}},
		{3, endedNormally, plan.Result{ExitCode: 3, Duration: time.Second}},
		{256, endedNormally, plan.Result{ExitCode: 256, Duration: time.Second}},
		{0xC0000005, endedNormally, plan.Result{ExitCode: asInt(0xC0000005), Duration: time.Second}},
		{0xFFFFFFFF, endedNormally, plan.Result{ExitCode: asInt(0xFFFFFFFF), Duration: time.Second}},
		{ExitTimedOut, endedTimeout, plan.Result{ExitCode: ExitTimedOut, TimedOut: true, Duration: time.Second}},
		{ExitInterrupted, endedInterrupt, plan.Result{ExitCode: asInt(ExitInterrupted), Duration: time.Second}},
	}
	for _, tt := range tests {
		if got := result(tt.code, tt.why, time.Second); got != tt.want {
			t.Errorf("result(0x%x, %d) = %+v, want %+v", tt.code, tt.why, got, tt.want)
		}
	}
	if d := describeExit(0xC0000005); !strings.Contains(d, "access violation") {
		t.Errorf("describeExit(0xC0000005) = %q", d)
	}
}

func TestReportString(t *testing.T) {
	full := Report{Available: true, CallerIntegrity: "Medium", JobObject: true, JobLimits: true, LowIntegrity: true, Labels: true}
	wine := Report{Available: true, CallerIntegrity: "High", JobObject: true, Problems: []string{"job memory limit (read back 0 bytes, want 536870912)"}}
	tests := []struct {
		r    Report
		want []string
	}{
		{full, []string{"can enforce the full sandbox", "Medium", "read denial:                    NO"}},
		{wine, []string{"cannot enforce", "--best-effort", "memory and process limits:      NO", "problem: job memory limit"}},
		{Report{Problems: []string{"not available on linux"}}, []string{"not available", "linux"}},
	}
	for _, tt := range tests {
		s := tt.r.String()
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("Report.String() = %q, lacks %q", s, w)
			}
		}
	}
	if !full.Enforceable() || wine.Enforceable() {
		t.Error("Enforceable is wrong")
	}
}
