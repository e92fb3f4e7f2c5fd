package windows

import "time"

// Options are the Windows-only settings from the configuration file.
type Options struct {
	// UseLowIntegrity runs the command with a Low-integrity token and stamps
	// the writable paths Low-writable (config windows.use_low_integrity,
	// true by default). When false, writes are confined by nothing but the
	// user's own rights, and Run records that in Enforcement.Missing.
	UseLowIntegrity bool

	// Grace is how long the command gets to exit after Ctrl-C, Ctrl-Break
	// or the cancellation of the context, before the whole job is
	// terminated; zero means DefaultGrace.
	Grace time.Duration
}

// Defaults Run applies to a zero field of the plan or of Options.
const (
	DefaultMaxProcesses = 10
	DefaultGrace        = 2 * time.Second
)

// Exit codes the launcher gives to processes it terminates, so the audit log
// tells a kill by aar-exec apart from a crash.
const (
	ExitTimedOut    = 124        // the plan's timeout fired
	ExitInterrupted = 0xC000013A // STATUS_CONTROL_C_EXIT, as Windows uses for Ctrl-C
)
