// Package plan describes one sandboxed run: what the CLI asks a launcher to
// execute, what the launcher enforced, and how the command ended.
//
// It is the only type shared between cmd/aar-exec and the launchers, so a
// launcher never needs to know about policy, audit or flags.
package plan

import (
	"errors"
	"os"
	"time"
)

// A Plan is everything a launcher needs to run one command. Paths are
// absolute and have had their symlinks resolved by the caller.
type Plan struct {
	Path string   // the program; when empty, Argv[0] resolved through PATH in Env
	Argv []string // the arguments, Argv[0] included (a shell's name, "-bash" for a login shell)
	Dir  string   // working directory
	Env  []string // the command's whole environment, NAME=value

	// Stdin replaces the inherited standard input when set: a script read
	// from stdin was consumed to be judged, so the shell gets its copy.
	Stdin *os.File

	Workspace string   // the writable root
	Writable  []string // further writable paths (--allow-write)
	ReadOnly  bool     // nothing is writable, not even the workspace
	DenyRead  []string // paths whose contents must stay unreadable

	MaxMemoryMB  int           // 0 means no cap
	MaxProcesses int           // 0 means no cap
	Timeout      time.Duration // 0 means none
	BestEffort   bool          // run with weaker enforcement rather than refuse
}

// Enforcement records what a launcher actually put in force, for the audit
// log and for doctor. Mechanism "none" means the command ran unconfined.
type Enforcement struct {
	Mechanism  string            `json:"mechanism"`
	ABI        int               `json:"abi,omitempty"`
	FSRights   []string          `json:"fs_rights,omitempty"`
	Scopes     []string          `json:"scopes,omitempty"`
	Rlimits    map[string]uint64 `json:"rlimits,omitempty"`
	ReadDenial bool              `json:"read_denial"`
	// ReadOnlyMounts: everything outside the writable paths is also a
	// read-only mount, which stops chmod/chown/utime/setxattr (root only).
	ReadOnlyMounts bool     `json:"readonly_mounts,omitempty"`
	Missing        []string `json:"missing,omitempty"` // what best-effort left out
}

// A Result is how the command ended.
type Result struct {
	ExitCode int           // the command's status; meaningful when Signal is 0
	Signal   int           // the signal that killed it (Unix), or 0
	TimedOut bool          // the timeout fired and the tree was killed
	Duration time.Duration // from start to the end of the whole tree
}

// Started is called by a launcher once it knows what it will enforce and
// before the command runs its first instruction; an error aborts the run
// before anything runs. A launcher may call it on another goroutine while
// it sets the sandbox up, but returns only after it has returned.
type Started func(Enforcement) error

// Errors a launcher returns, which the CLI maps to exit codes with errors.Is.
var (
	ErrNotFound = errors.New("command not found")           // 127
	ErrDenied   = errors.New("denied")                      // 126
	ErrSetup    = errors.New("sandbox could not be set up") // 125
)
