package wsl

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"github.com/aar-agent/aar-exec/internal/winargv"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/plan"
)

// Defaults for [Config].
const (
	DefaultDistro = "aar-sandbox"
	DefaultShell  = "sh"
)

// Config selects the distro and how to reach it. The zero value runs the
// default distro with sh through the system's wsl.exe.
type Config struct {
	Distro    string // default [DefaultDistro]
	Shell     string // default [DefaultShell]
	Workspace string // Windows path; when empty the plan's Workspace is used
	Profile   string // path of a distro profile JSON; its values are the base, inline fields override
	Exe       string // wsl.exe to run; default %SystemRoot%\System32\wsl.exe, then "wsl.exe" on PATH

	// MountRoot is the distro's [automount] root; default "/mnt/".
	MountRoot string

	// The command's standard streams; nil means aar-exec's own, and a
	// plan's Stdin wins over Stdin. Output always passes through a pipe,
	// so that wsl.exe's own messages can be read back when it fails.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
}

// settings is a Config with its profile merged in and its defaults applied.
type settings struct {
	distro, shell, mountRoot, exe string
	profile                       Profile
}

// resolve applies the profile and the defaults to cfg and validates the
// result, without looking for wsl.exe yet.
func resolve(cfg Config) (settings, error) {
	var s settings
	if cfg.Profile != "" {
		prof, err := LoadProfile(cfg.Profile)
		if err != nil {
			return s, err
		}
		s.profile = prof
	}
	s.distro = cmp.Or(cfg.Distro, s.profile.Distro, DefaultDistro)
	s.shell = cmp.Or(cfg.Shell, s.profile.Shell, DefaultShell)
	s.mountRoot = cmp.Or(cfg.MountRoot, defaultMountRoot)
	s.exe = cfg.Exe
	if err := checkDistroName(s.distro); err != nil {
		return s, err
	}
	if s.shell == "" || s.shell[0] == '-' || strings.ContainsAny(s.shell, "\x00 \t\r\n\"") || !utf8.ValidString(s.shell) {
		return s, fmt.Errorf("wsl: shell %q is not a single program name", s.shell)
	}
	if !strings.HasPrefix(s.mountRoot, "/") || strings.ContainsAny(s.mountRoot, "\x00\\") {
		return s, fmt.Errorf("wsl: mount root %q is not an absolute Linux path", s.mountRoot)
	}
	if !strings.HasSuffix(s.mountRoot, "/") {
		s.mountRoot += "/"
	}
	return s, nil
}

// checkDistroName accepts the names wsl.exe --import accepts.
func checkDistroName(name string) error {
	if name == "" || len(name) > 64 {
		return fmt.Errorf("wsl: distro name %q must be 1 to 64 characters", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !isASCIILetter(c) && !('0' <= c && c <= '9') && c != '.' && c != '_' && c != '-' {
			return fmt.Errorf("wsl: distro name %q may hold only letters, digits, '.', '_' and '-'", name)
		}
	}
	if name[0] == '-' {
		return fmt.Errorf("wsl: distro name %q must not start with '-'", name)
	}
	return nil
}

// The script wsl.exe runs is assembled from these constant pieces; every
// value reaches it as a positional parameter, never as script text, so
// nothing the agent controls is parsed by a shell.
const (
	// scriptMemory takes the limit in KiB from $1.
	scriptMemory = `ulimit -v "$1" || { echo 'aar-exec: wsl: cannot set the memory limit' >&2; exit 125; }; shift; `
	// scriptCD enters $1 or fails closed, unlike wsl.exe's --cd, which
	// carries on in another directory.
	scriptCD = `cd "$1" || { echo 'aar-exec: wsl: cannot enter the working directory' >&2; exit 125; }; shift; `
	// scriptDecode strips the one-character prefix from each argument;
	// wsl.exe --exec rejects an empty argument (microsoft/WSL#6072), so
	// when there is one every argument is sent as argPrefix+arg. eval sees
	// only the references "${1#?}" "${2#?}"..., digits and fixed syntax, so
	// each argument is still expanded once and parsed never; building that
	// list is linear, where re-setting "$@" per argument is quadratic
	// (1.8 s for 3000 arguments in dash).
	scriptDecode = `i=0; s=; for a do i=$((i+1)); s="$s \"\${$i#?}\""; done; eval "set -- $s"; `
	scriptExec   = `exec "$@"`

	argPrefix = "_"

	// cdFailed is what scriptCD prints, matched to tell its exit status
	// from the command's own 125.
	cdFailed  = "aar-exec: wsl: cannot enter the working directory"
	memFailed = "aar-exec: wsl: cannot set the memory limit"
)

// buildArgs returns wsl.exe's arguments (without the program) for running
// argv in dir.
func buildArgs(s settings, memKiB uint64, dir string, argv []string) []string {
	var script strings.Builder
	args := []string{"-d", s.distro, "--exec", s.shell, "-c", "", "aar-exec"}
	if memKiB > 0 {
		script.WriteString(scriptMemory)
		args = append(args, strconv.FormatUint(memKiB, 10))
	}
	script.WriteString(scriptCD)
	args = append(args, dir)
	encode := false
	for _, a := range argv {
		if a == "" {
			encode = true
			break
		}
	}
	if encode {
		script.WriteString(scriptDecode)
		for _, a := range argv {
			args = append(args, argPrefix+a)
		}
	} else {
		args = append(args, argv...)
	}
	script.WriteString(scriptExec)
	args[5] = script.String()
	return args
}

// maxMemoryMB bounds the memory cap (1 PiB) so that its KiB count fits
// ulimit and its byte count fits the audit's uint64.
const maxMemoryMB = 1 << 30

// enforcement describes what WSL mode puts in force for p, and refuses
// protections it cannot give unless p asks for best effort. Write
// confinement is always missing: that is the nature of the mode, which
// the policy accounts for by requiring approval.
func enforcement(p *plan.Plan) (plan.Enforcement, uint64, error) {
	e := plan.Enforcement{Mechanism: "wsl", Missing: []string{"write confinement"}}
	switch {
	case p.MaxMemoryMB < 0 || p.MaxMemoryMB > maxMemoryMB:
		return e, 0, fmt.Errorf("wsl: memory cap of %d MiB is out of range: %w", p.MaxMemoryMB, plan.ErrSetup)
	case p.MaxProcesses < 0:
		return e, 0, fmt.Errorf("wsl: process cap of %d is negative: %w", p.MaxProcesses, plan.ErrSetup)
	case p.Timeout < 0:
		return e, 0, fmt.Errorf("wsl: timeout %v is negative: %w", p.Timeout, plan.ErrSetup)
	}
	var lacking []string
	if p.ReadOnly {
		lacking = append(lacking, "read-only")
	}
	if len(p.DenyRead) > 0 {
		lacking = append(lacking, "read denial")
	}
	if p.MaxProcesses > 0 {
		lacking = append(lacking, "process cap")
	}
	if len(lacking) > 0 && !p.BestEffort {
		return e, 0, fmt.Errorf("wsl: WSL mode cannot enforce %s; allow best effort to run without: %w",
			strings.Join(lacking, ", "), plan.ErrSetup)
	}
	e.Missing = append(e.Missing, lacking...)
	var memKiB uint64
	if p.MaxMemoryMB > 0 {
		memKiB = uint64(p.MaxMemoryMB) << 10
		e.Rlimits = map[string]uint64{"as": memKiB << 10}
	}
	return e, memKiB, nil
}

// Run runs p.Argv in the configured distro and reports how it ended.
//
// Before anything is spawned it checks with [Guard] that p.Dir lies inside
// the workspace (cfg.Workspace, else p.Workspace), returning an error
// wrapping [plan.ErrDenied] if not. It then translates p.Dir to its /mnt
// path, calls started with what WSL mode enforces, and runs
//
//	wsl.exe -d DISTRO --exec SHELL -c SCRIPT aar-exec /mnt/c/... ARGV...
//
// where SCRIPT enters the directory, failing closed, and execs ARGV with no
// second parse. The command's exit status passes through in the Result.
// Failures of wsl.exe itself (exit 0xFFFFFFFF), a directory the distro
// cannot enter, and a missing wsl.exe become errors wrapping
// [plan.ErrSetup]; a missing distro's error says how to create it.
// p.Timeout kills wsl.exe and the processes it started and sets TimedOut.
//
// wsl.exe gets p.Env plus WSL_UTF8=1; the Linux side sees only the
// variables that p.Env's WSLENV lists.
func Run(ctx context.Context, p *plan.Plan, cfg Config, started plan.Started) (plan.Result, error) {
	if p == nil || len(p.Argv) == 0 {
		return plan.Result{}, fmt.Errorf("wsl: no command to run: %w", plan.ErrSetup)
	}
	workspace := cmp.Or(cfg.Workspace, p.Workspace)
	dir, err := guard(p.Dir, workspace)
	if err != nil {
		return plan.Result{}, err
	}
	s, err := resolve(cfg)
	if err != nil {
		return plan.Result{}, fmt.Errorf("%w: %w", err, plan.ErrSetup)
	}
	enf, memKiB, err := enforcement(p)
	if err != nil {
		return plan.Result{}, err
	}
	linuxDir := translate(dir, s.mountRoot)
	exe, err := findExe(s.exe)
	if err != nil {
		return plan.Result{}, fmt.Errorf("%w: %w", err, plan.ErrSetup)
	}
	args := buildArgs(s, memKiB, linuxDir, p.Argv)
	full := append([]string{exe}, args...)
	if err := winargv.Check(full); err != nil {
		return plan.Result{}, fmt.Errorf("wsl: %v: %w", err, plan.ErrSetup)
	}
	if started != nil {
		if err := started(enf); err != nil {
			return plan.Result{}, err
		}
	}

	runCtx, cancel := ctx, context.CancelFunc(func() {})
	if p.Timeout > 0 {
		runCtx, cancel = context.WithTimeout(ctx, p.Timeout)
	}
	defer cancel()
	cmd := exec.CommandContext(runCtx, exe, args...)
	cmd.Env = wslEnv(p.Env)
	switch {
	case p.Stdin != nil:
		cmd.Stdin = p.Stdin
	case cfg.Stdin != nil:
		cmd.Stdin = cfg.Stdin
	default:
		cmd.Stdin = os.Stdin
	}
	stdout := &headWriter{w: orStd(cfg.Stdout, os.Stdout), max: headMax}
	stderr := &headWriter{w: orStd(cfg.Stderr, os.Stderr), max: headMax}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// Output pipes held open by a stray grandchild must not stall the
	// return after the tree is gone.
	cmd.WaitDelay = 2 * time.Second
	tree, err := prepareTree(cmd, winargv.Join(full), dir)
	if err != nil {
		return plan.Result{}, fmt.Errorf("wsl: %v: %w", err, plan.ErrSetup)
	}
	defer tree.close()
	// Only a kill by the deadline counts as a timeout, not a command that
	// ended on its own just before the deadline was looked at.
	var killed atomic.Bool
	kill := cmd.Cancel
	cmd.Cancel = func() error {
		killed.Store(true)
		return kill()
	}

	start := time.Now()
	if err := cmd.Start(); err != nil {
		return plan.Result{}, fmt.Errorf("wsl: start %s: %v: %w", exe, err, plan.ErrSetup)
	}
	if err := tree.started(cmd); err != nil {
		_ = tree.kill(cmd)
		_ = cmd.Wait()
		return plan.Result{}, fmt.Errorf("wsl: %v: %w", err, plan.ErrSetup)
	}
	waitErr := cmd.Wait()
	res := plan.Result{Duration: time.Since(start)}
	if cmd.ProcessState == nil {
		return res, fmt.Errorf("wsl: wait for %s: %v: %w", exe, waitErr, plan.ErrSetup)
	}
	res.TimedOut = killed.Load() && ctx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded)
	res.Signal = exitSignal(cmd.ProcessState)
	if res.Signal == 0 {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	if res.TimedOut {
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		return res, fmt.Errorf("wsl: run interrupted: %w", err)
	}
	if res.Signal != 0 {
		return res, nil
	}
	text := stdout.text() + "\n" + stderr.text()
	if isWSLFailure(res.ExitCode, text) {
		return res, wslFailure(s.distro, res.ExitCode, text)
	}
	if res.ExitCode == 125 {
		switch {
		case strings.Contains(text, cdFailed):
			return res, fmt.Errorf("wsl: working directory %q (%s in distro %q) cannot be entered: %w",
				p.Dir, linuxDir, s.distro, plan.ErrSetup)
		case strings.Contains(text, memFailed):
			return res, fmt.Errorf("wsl: distro %q refused the memory limit of %d MiB: %w",
				s.distro, p.MaxMemoryMB, plan.ErrSetup)
		}
	}
	return res, nil
}

func orStd(w io.Writer, std *os.File) io.Writer {
	if w == nil {
		return std
	}
	return w
}

// wslEnv is env with WSL_UTF8=1, so that wsl.exe's own messages come out as
// UTF-8 rather than UTF-16 on versions that support it.
func wslEnv(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(name, "WSL_UTF8") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "WSL_UTF8=1")
}

// headWriter passes everything through to w and keeps the first max
// bytes, where wsl.exe's own failure messages appear, and the last
// tailMax bytes, where they appear when the WSL instance dies mid-run.
type headWriter struct {
	w    io.Writer
	max  int
	head []byte
	tail []byte // only once head is full
}

const (
	headMax = 4096
	tailMax = 1024
)

func (h *headWriter) Write(p []byte) (int, error) {
	rest := p
	if n := h.max - len(h.head); n > 0 {
		k := min(n, len(rest))
		h.head = append(h.head, rest[:k]...)
		rest = rest[k:]
	}
	if len(rest) > 0 {
		h.tail = append(h.tail, rest[max(0, len(rest)-tailMax):]...)
		if over := len(h.tail) - tailMax; over > 0 {
			h.tail = append(h.tail[:0], h.tail[over:]...)
		}
	}
	return h.w.Write(p)
}

// text decodes what was kept, marking a gap between head and tail.
func (h *headWriter) text() string {
	if len(h.tail) == 0 {
		return decodeWSLText(h.head)
	}
	tail := h.tail
	// The tail may start in the middle of a UTF-16 code unit.
	if !looksUTF16LE(tail) && len(tail) > 1 && looksUTF16LE(tail[1:]) {
		tail = tail[1:]
	}
	return decodeWSLText(h.head) + "\n…\n" + decodeWSLText(tail)
}

// findExe locates wsl.exe: name as given when it holds a path separator,
// otherwise looked up in PATH; the empty name means the system's wsl.exe.
func findExe(name string) (string, error) {
	if name == "" {
		return defaultExe()
	}
	if strings.ContainsAny(name, `/\`) {
		if _, err := os.Stat(name); err != nil {
			return "", fmt.Errorf("wsl: %s not found: %v", name, err)
		}
		return name, nil
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("wsl: %s not found in PATH; is WSL installed (wsl --install)?", name)
	}
	return path, nil
}
