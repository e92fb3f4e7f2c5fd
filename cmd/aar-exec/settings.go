package main

import (
	"cmp"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/aar-agent/aar-exec/launcher/linux"
	"github.com/aar-agent/aar-exec/policy"
)

// settings is everything one run needs, resolved from defaults, the config
// file, the AAR_* environment and flags, in that order of precedence.
type settings struct {
	flags *runFlags
	cfg   *policy.Config

	configPath string
	mode       string // local, linux, windows or wsl: what will run
	requested  string // what was asked for, auto included
	fallback   string // why auto fell back to local, or ""

	cwd, home, workspace string
	allowWrite           []string

	auditPath       string // "" when off, "-" for stderr
	auditBestEffort bool
	hmacKeyFile     string
	approvalsFile   string

	timeout      time.Duration
	maxMemoryMB  int
	maxProcesses int
	bestEffort   bool
	readOnly     bool
	allowHome    bool
	secretReads  bool
	quiet        bool
	envMode      string
	passEnv      []string
	shell        string
}

const maxConfigBytes = 4 << 20

// stateDir is where aar-exec keeps its audit log, approvals and key: the
// XDG state directory, outside any workspace.
func stateDir(getenv func(string) string, home string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "aar-exec")
	}
	return filepath.Join(home, ".local", "state", "aar-exec")
}

// resolve builds the settings for one invocation. asShell selects the
// shell's workspace default (the git top-level of the working directory).
func (a *app) resolve(own []string, asShell bool) (*settings, error) {
	f, err := parseFlags(own, a.getenv)
	if err != nil {
		return nil, failed("%v; see aar-exec --help", err)
	}
	s := &settings{flags: f}
	if s.cwd, err = os.Getwd(); err != nil {
		return nil, failed("cannot read the working directory: %v; cd to an existing directory", err)
	}
	s.home = a.getenv("HOME")
	if h, err := os.UserHomeDir(); s.home == "" && err == nil {
		s.home = h
	}

	if err := s.loadConfig(a.getenv); err != nil {
		return nil, err
	}
	c := s.cfg

	// Mode.
	s.requested = cmp.Or(f.Mode, c.Safety.Sandbox.Mode, "auto")
	switch s.requested {
	case "auto":
		s.mode, s.fallback = autoMode()
	case "local", "linux", "windows", "wsl":
		s.mode = s.requested
	default:
		return nil, failed("unknown mode %q; use local, linux, windows, wsl or auto", s.requested)
	}

	// Limits and switches: flag (or AAR_*), then the config file, then the default.
	modeMemory := map[string]int{"linux": c.Safety.Sandbox.Linux.MaxMemoryMB,
		"windows": c.Safety.Sandbox.Windows.MaxMemoryMB, "wsl": c.Safety.Sandbox.WSL.MaxMemoryMB}
	s.maxMemoryMB = firstPositive(f.MaxMemoryMB, modeMemory[s.mode], 512)
	if s.mode == "windows" {
		s.maxProcesses = firstPositive(f.MaxProcesses, c.Safety.Sandbox.Windows.MaxProcesses, c.Exec.MaxProcesses, 10)
	} else {
		s.maxProcesses = firstPositive(f.MaxProcesses, c.Exec.MaxProcesses)
	}
	if f.MaxMemoryMB < 0 || f.MaxProcesses < 0 || f.Timeout < 0 {
		return nil, failed("--max-memory-mb, --max-processes and --timeout must not be negative")
	}
	s.timeout = f.Timeout
	if s.timeout == 0 {
		s.timeout = time.Duration(c.Exec.Timeout)
	}
	s.bestEffort = f.BestEffort || c.Exec.BestEffort
	s.readOnly = f.ReadOnly || c.Safety.ReadOnly
	s.allowHome = f.AllowHome || c.Exec.AllowHome
	s.secretReads = f.AllowSecretReads || c.Exec.AllowSecretReads
	s.quiet = f.Quiet || c.Exec.Quiet
	s.envMode = cmp.Or(c.Exec.Env, "inherit")
	if s.envMode != "inherit" && s.envMode != "strict" {
		return nil, failed("config %s: aar_exec.env is %q; use \"inherit\" or \"strict\"", s.configPath, s.envMode)
	}
	s.passEnv = append(append([]string{}, c.Exec.PassEnv...), f.Env...)
	s.shell = cmp.Or(f.Shell, c.Exec.Shell)

	// Policy edits from flags and environment: denied lists only grow.
	c.AddDeniedPaths(f.DeniedPaths...)
	switch {
	case len(f.AllowedPaths) > 0:
		c.Safety.AllowedPaths = f.AllowedPaths
	case f.RestrictToCwd:
		c.Safety.AllowedPaths = []string{"<cwd>/**"}
	case f.NoRestrictToCwd:
		c.Safety.AllowedPaths = nil
	}
	if f.RequireApproval {
		c.Safety.RequireApprovalForWrites, c.Safety.RequireApprovalForExecute = true, true
	}
	if f.NoRequireApproval {
		c.Safety.RequireApprovalForWrites, c.Safety.RequireApprovalForExecute = false, false
	}
	c.Safety.ReadOnly = s.readOnly

	// Workspace and writable paths.
	modeWorkspace := map[string]string{"linux": c.Safety.Sandbox.Linux.Workspace,
		"windows": c.Safety.Sandbox.Windows.Workspace, "wsl": c.Safety.Sandbox.WSL.Workspace}
	ws := cmp.Or(f.Workspace, modeWorkspace[s.mode])
	if ws == "" {
		ws = s.cwd
		if asShell {
			// The repository's top, unless that is no place to write:
			// a stray .git in /tmp must not make /tmp the workspace.
			if top := gitTopLevel(s.cwd, s.home); linux.CheckWritable(top, s.home, s.allowHome) == nil {
				ws = top
			}
		}
	}
	if s.workspace, err = existingDir(ws, s.cwd, "workspace"); err != nil {
		return nil, err
	}
	for _, w := range append(append([]string{}, c.Exec.AllowWrite...), f.AllowWrite...) {
		p, err := existingPath(w, s.cwd, "--allow-write path")
		if err != nil {
			return nil, err
		}
		s.allowWrite = append(s.allowWrite, p)
	}

	// The audit log, approvals and key must stay out of the command's reach.
	state := stateDir(a.getenv, s.home)
	switch log := cmp.Or(f.AuditLog, c.Exec.Audit.Path); log {
	case "off":
	case "-":
		s.auditPath = "-"
	case "":
		s.auditPath = filepath.Join(state, "audit.jsonl")
	default:
		s.auditPath = absFrom(log, s.cwd)
	}
	s.auditBestEffort = c.Exec.Audit.BestEffort
	if c.Exec.Audit.HMACKeyFile != "" {
		s.hmacKeyFile = absFrom(expandHome(c.Exec.Audit.HMACKeyFile, s.home), s.cwd)
	}
	s.approvalsFile = cmp.Or(c.Exec.ApprovalsFile, filepath.Join(state, "approvals.json"))
	if s.mode == "linux" {
		if err := s.checkWritable(); err != nil {
			return nil, err
		}
	}
	return s, s.checkReach()
}

// loadConfig reads the config file from --config, $AAR_CONFIG or
// ~/.aar/config.json, onto the built-in defaults.
func (s *settings) loadConfig(getenv func(string) string) error {
	path, explicit := s.flags.Config, true
	if path == "" {
		path, explicit = filepath.Join(s.home, ".aar", "config.json"), false
	}
	path = absFrom(expandHome(path, s.home), s.cwd)
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !explicit {
		s.cfg = policy.Default()
		return nil
	}
	if err != nil {
		return failed("config: %v; fix the path given with --config or $AAR_CONFIG", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return failed("config %s is a directory; point --config at a JSON file", path)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxConfigBytes+1))
	if err != nil {
		return failed("config %s: %v", path, err)
	}
	if s.cfg, err = policy.ParseConfig(path, data); err != nil {
		return failed("%v; fix the config file", err)
	}
	s.configPath = path
	return nil
}

// checkReach refuses a config file, audit log, approvals file, key or
// aar-exec binary that the command could write: whatever it can write must
// never loosen the next command's policy or edit its record, and a binary
// it could replace would run the next command unconfined.
func (s *settings) checkReach() error {
	self, _ := os.Executable()
	files := []struct{ what, path string }{
		{"config file", s.configPath},
		{"audit log", s.auditPath},
		{"approvals file", s.approvalsFile},
		{"audit key", s.hmacKeyFile},
		{"aar-exec binary", self},
	}
	for _, f := range files {
		if f.path == "" || f.path == "-" {
			continue
		}
		real := resolveExisting(f.path)
		for _, w := range append([]string{s.workspace}, s.allowWrite...) {
			if policy.Within(real, w, s.cwd) || policy.Within(f.path, w, s.cwd) {
				return failed("the %s %s lies inside the writable path %s, where the command could change it; keep it outside every workspace and --allow-write path",
					f.what, f.path, w)
			}
		}
	}
	return nil
}

// autoMode picks the strongest mode this OS can enforce.
func autoMode() (mode, fallback string) {
	switch runtime.GOOS {
	case "linux":
		if landlockUsable() {
			return "linux", ""
		}
		return "local", "this kernel has no usable Landlock (ABI 3 or later)"
	case "windows":
		return "windows", ""
	}
	return "local", "aar-exec has no sandbox for " + runtime.GOOS
}

// gitTopLevel returns the top of the git work tree holding dir, or dir
// itself when there is none or the top is not a sensible writable root.
func gitTopLevel(dir, home string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if d == "/" || d == home {
				return dir
			}
			return d
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}

func existingDir(p, cwd, what string) (string, error) {
	r, err := existingPath(p, cwd, what)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(r); err != nil || !st.IsDir() {
		return "", failed("%s %s is not a directory; pass a directory with --workspace", what, p)
	}
	return r, nil
}

// existingPath makes p absolute and resolves its symlinks: a rule on a
// symlink would grant its target.
func existingPath(p, cwd, what string) (string, error) {
	if strings.IndexByte(p, 0) >= 0 {
		return "", failed("%s contains a NUL byte", what)
	}
	r, err := filepath.EvalSymlinks(absFrom(p, cwd))
	if err != nil {
		return "", failed("%s %s does not exist; create it or pass another", what, p)
	}
	return r, nil
}

// resolveExisting resolves the symlinks of the longest existing prefix of p.
// A prefix that Lstat cannot find cannot resolve either, so the walk up
// skips those with one Lstat each, where an EvalSymlinks would walk every
// component from the root again (a missing approvals file under a missing
// state directory: 11 lstats, now 6).
func resolveExisting(p string) string {
	if _, err := os.Lstat(p); err == nil {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return r
		}
	}
	dir, base := filepath.Split(p)
	if dir == "" || filepath.Clean(dir) == p {
		return p
	}
	return filepath.Join(resolveExisting(filepath.Clean(dir)), base)
}

func absFrom(p, cwd string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(home, rest)
	}
	return p
}

func firstPositive(vals ...int) int {
	for _, v := range vals {
		if v > 0 {
			return v
		}
	}
	return 0
}
