package windows

import (
	"fmt"
	"time"

	"github.com/aar-agent/aar-exec/plan"
)

// Win32 error numbers that decide how a failed CreateProcess is reported.
const (
	errFileNotFound      = 2
	errPathNotFound      = 3
	errAccessDenied      = 5
	errInvalidName       = 123
	errBadExeFormat      = 193
	errExeMachineType    = 216
	errDirectory         = 267
	errElevationRequired = 740
)

// startError wraps a CreateProcess failure so the CLI maps it to the right
// exit code: a program that is not there is 127, one that cannot be run
// is 126, and anything else is the sandbox's failure, 125.
func startError(program string, errno uint32, err error) error {
	switch errno {
	case errFileNotFound, errPathNotFound, errInvalidName:
		return fmt.Errorf("windows launcher: start %s: %v: %w", quotePath(program), err, plan.ErrNotFound)
	case errAccessDenied, errBadExeFormat, errExeMachineType, errElevationRequired:
		return fmt.Errorf("windows launcher: start %s: %v: %w", quotePath(program), err, plan.ErrDenied)
	case errDirectory:
		return fmt.Errorf("windows launcher: start %s: working directory: %v: %w", quotePath(program), err, plan.ErrSetup)
	}
	return fmt.Errorf("windows launcher: start %s: %v: %w", quotePath(program), err, plan.ErrSetup)
}

// ending is why the wait for the job ended.
type ending int

const (
	endedNormally ending = iota
	endedTimeout
	endedInterrupt
)

// result maps the root process's 32-bit exit code to a plan.Result. The
// code passes through unchanged (an NTSTATUS such as 0xC0000005 stays a
// large positive number on 64-bit builds); Windows has no signals.
func result(code uint32, why ending, d time.Duration) plan.Result {
	r := plan.Result{ExitCode: int(code), Duration: d}
	if why == endedTimeout {
		r.TimedOut = true
	}
	return r
}

// describeExit names well-known NTSTATUS exit codes for messages.
func describeExit(code uint32) string {
	switch code {
	case 0xC0000005:
		return "access violation"
	case 0xC0000017:
		return "out of memory"
	case 0xC00000FD:
		return "stack overflow"
	case 0xC000013A:
		return "interrupted (Ctrl-C)"
	case 0xC0000409:
		return "stack buffer overrun (fail-fast)"
	case 0xC0000135:
		return "a DLL was not found"
	case 0xC0000142:
		return "a DLL failed to initialise"
	}
	return ""
}
