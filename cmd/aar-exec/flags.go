package main

import (
	"time"

	"github.com/alecthomas/kong"
)

// runFlags are aar-exec's own flags. They are long options bash does not
// have, so a client that calls aar-exec as its shell never collides with
// them. Each can also come from an AAR_* environment variable; flags win
// over the environment, which wins over the config file.
type runFlags struct {
	Workspace        string        `env:"AAR_WORKSPACE" help:"The writable root (default: the git top-level of the working directory when called as a shell, else the working directory)."`
	Mode             string        `env:"AAR_MODE" help:"local, linux, windows, wsl or auto (default auto)."`
	Config           string        `env:"AAR_CONFIG" help:"Config file (default ~/.aar/config.json when present)."`
	AuditLog         string        `name:"audit-log" env:"AAR_AUDIT_LOG" help:"Audit log file, - for stderr, off to disable."`
	MaxMemoryMB      int           `name:"max-memory-mb" env:"AAR_MAX_MEMORY_MB" help:"Memory cap in MiB (RLIMIT_DATA; default 512)."`
	MaxProcesses     int           `name:"max-processes" env:"AAR_MAX_PROCESSES" help:"Process cap (RLIMIT_NPROC; applies to non-root users)."`
	Timeout          time.Duration `env:"AAR_TIMEOUT" help:"Kill the command and everything it started after this long (exit 124)."`
	AllowWrite       []string      `name:"allow-write" env:"AAR_ALLOW_WRITE" sep:":" help:"Another writable path (repeatable)."`
	Env              []string      `name:"env" env:"AAR_PASS_ENV" sep:"," help:"Pass this environment variable through unchanged (repeatable)."`
	BestEffort       bool          `name:"best-effort" env:"AAR_BEST_EFFORT" help:"Run with weaker confinement rather than refuse."`
	ReadOnly         bool          `name:"read-only" env:"AAR_READ_ONLY" help:"Nothing is writable, not even the workspace."`
	Quiet            bool          `env:"AAR_QUIET" help:"No warnings on stderr."`
	Shell            string        `env:"AAR_SHELL" help:"The shell that runs -c strings (default /bin/sh; /bin/bash when bash-only options are given)."`
	AllowHome        bool          `name:"allow-home" env:"AAR_ALLOW_HOME" help:"Allow the home directory itself as workspace."`
	AllowSecretReads bool          `name:"allow-secret-reads" env:"AAR_ALLOW_SECRET_READS" help:"Do not make credential stores unreadable in linux mode."`

	// The Aar CLI's safety flags, same names and meanings.
	RequireApproval   bool     `name:"require-approval" help:"Ask before writes and execution."`
	NoRequireApproval bool     `name:"no-require-approval" help:"Do not ask before writes and execution."`
	RestrictToCwd     bool     `name:"restrict-to-cwd" help:"allowed_paths becomes the working directory."`
	NoRestrictToCwd   bool     `name:"no-restrict-to-cwd" help:"Clear allowed_paths."`
	DeniedPaths       []string `name:"denied-paths" env:"AAR_DENIED_PATHS" sep:"," help:"Comma-separated globs appended to the denied paths."`
	AllowedPaths      []string `name:"allowed-paths" env:"AAR_ALLOWED_PATHS" sep:"," help:"Comma-separated globs that replace allowed_paths (overrides --restrict-to-cwd)."`

	JSON bool `name:"json" help:"doctor: print JSON."`
}

// ownFlag tells shellargs which long options are aar-exec's own and
// whether they take a value.
func ownFlag(name string) (isOwn, takesValue bool) {
	switch name {
	case "workspace", "mode", "config", "audit-log", "max-memory-mb", "max-processes", "timeout",
		"allow-write", "env", "shell", "denied-paths", "allowed-paths":
		return true, true
	case "best-effort", "read-only", "quiet", "allow-home", "allow-secret-reads", "require-approval",
		"no-require-approval", "restrict-to-cwd", "no-restrict-to-cwd", "json":
		return true, false
	}
	return false, false
}

// parseFlags fills runFlags from aar-exec's own flags (as shellargs found
// them, "--name=value") and, through kong's env tags, the AAR_* environment.
func parseFlags(own []string) (*runFlags, error) {
	var f runFlags
	k, err := kong.New(&f, kong.Name("aar-exec"), kong.Exit(func(int) {}))
	if err != nil {
		return nil, err
	}
	if _, err := k.Parse(own); err != nil {
		return nil, err
	}
	return &f, nil
}
