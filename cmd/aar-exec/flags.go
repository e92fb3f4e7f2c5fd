package main

import (
	"fmt"
	"strconv"
	"strings"
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
	AuditLog         string        `name:"audit-log" help:"Audit log file, - for stderr, off to disable."`
	MaxMemoryMB      int           `name:"max-memory-mb" help:"Memory cap in MiB (RLIMIT_DATA; default 512)."`
	MaxProcesses     int           `name:"max-processes" help:"Process cap (RLIMIT_NPROC; applies to non-root users)."`
	Timeout          time.Duration `env:"AAR_TIMEOUT" help:"Kill the command and everything it started after this long (exit 124)."`
	AllowWrite       []string      `name:"allow-write" sep:":" help:"Another writable path (repeatable)."`
	Env              []string      `name:"env" sep:"," help:"Pass this environment variable through unchanged (repeatable)."`
	BestEffort       bool          `name:"best-effort" help:"Run with weaker confinement rather than refuse."`
	ReadOnly         bool          `name:"read-only" help:"Nothing is writable, not even the workspace."`
	Quiet            bool          `env:"AAR_QUIET" help:"No warnings on stderr."`
	Shell            string        `env:"AAR_SHELL" help:"The shell that runs -c strings (default /bin/sh; /bin/bash when bash-only options are given)."`
	AllowHome        bool          `name:"allow-home" help:"Allow the home directory itself as workspace."`
	AllowSecretReads bool          `name:"allow-secret-reads" help:"Do not make credential stores unreadable in linux mode."`

	// The Aar CLI's safety flags, same names and meanings.
	RequireApproval   bool     `name:"require-approval" help:"Ask before writes and execution."`
	NoRequireApproval bool     `name:"no-require-approval" help:"Do not ask before writes and execution."`
	RestrictToCwd     bool     `name:"restrict-to-cwd" help:"allowed_paths becomes the working directory."`
	NoRestrictToCwd   bool     `name:"no-restrict-to-cwd" help:"Clear allowed_paths."`
	DeniedPaths       []string `name:"denied-paths" sep:"," help:"Comma-separated globs appended to the denied paths."`
	AllowedPaths      []string `name:"allowed-paths" sep:"," help:"Comma-separated globs that replace allowed_paths (overrides --restrict-to-cwd)."`

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
// them, "--name=value"), then from the AAR_* environment for what no flag
// set. kong only runs when there are flags: building its model costs about
// 0.35 ms, and make recipes and agents usually pass none.
func parseFlags(own []string, getenv func(string) string) (*runFlags, error) {
	var f runFlags
	if len(own) > 0 {
		k, err := kong.New(&f, kong.Name("aar-exec"), kong.Exit(func(int) {}))
		if err != nil {
			return nil, err
		}
		if _, err := k.Parse(own); err != nil {
			return nil, err
		}
	}
	if err := f.applyEnv(getenv); err != nil {
		return nil, err
	}
	return &f, nil
}

// applyEnv fills every flag left unset from its AAR_* variable. The names
// avoid KEY, TOKEN, SECRET, AUTH and PASS, which some agents strip.
func (f *runFlags) applyEnv(getenv func(string) string) error {
	strs := []struct {
		v    *string
		name string
	}{{&f.Workspace, "AAR_WORKSPACE"}, {&f.Mode, "AAR_MODE"}, {&f.Config, "AAR_CONFIG"},
		{&f.AuditLog, "AAR_AUDIT_LOG"}, {&f.Shell, "AAR_SHELL"}}
	for _, s := range strs {
		if *s.v == "" {
			*s.v = getenv(s.name)
		}
	}
	ints := []struct {
		v    *int
		name string
	}{{&f.MaxMemoryMB, "AAR_MAX_MEMORY_MB"}, {&f.MaxProcesses, "AAR_MAX_PROCESSES"}}
	for _, n := range ints {
		if v := getenv(n.name); v != "" && *n.v == 0 {
			i, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%s=%q is not a whole number", n.name, v)
			}
			*n.v = i
		}
	}
	if v := getenv("AAR_TIMEOUT"); v != "" && f.Timeout == 0 {
		d, err := time.ParseDuration(v)
		if err != nil {
			return fmt.Errorf("AAR_TIMEOUT=%q is not a duration such as 90s", v)
		}
		f.Timeout = d
	}
	bools := []struct {
		v    *bool
		name string
	}{{&f.BestEffort, "AAR_BEST_EFFORT"}, {&f.ReadOnly, "AAR_READ_ONLY"}, {&f.Quiet, "AAR_QUIET"},
		{&f.AllowHome, "AAR_ALLOW_HOME"}, {&f.AllowSecretReads, "AAR_ALLOW_SECRET_READS"}}
	for _, b := range bools {
		if v := getenv(b.name); v != "" && !*b.v {
			on, err := strconv.ParseBool(v)
			if err != nil {
				return fmt.Errorf("%s=%q is not true or false", b.name, v)
			}
			*b.v = on
		}
	}
	lists := []struct {
		v    *[]string
		name string
		sep  string
	}{{&f.AllowWrite, "AAR_ALLOW_WRITE", ":"}, {&f.Env, "AAR_PASS_ENV", ","},
		{&f.AllowedPaths, "AAR_ALLOWED_PATHS", ","}}
	for _, l := range lists {
		if v := getenv(l.name); v != "" && len(*l.v) == 0 {
			*l.v = strings.Split(v, l.sep)
		}
	}
	// Denied paths only ever grow: the environment's add to the flag's.
	if v := getenv("AAR_DENIED_PATHS"); v != "" {
		f.DeniedPaths = append(f.DeniedPaths, strings.Split(v, ",")...)
	}
	return nil
}
