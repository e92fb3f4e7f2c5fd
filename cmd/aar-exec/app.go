package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/aar-agent/aar-exec/internal/phase"
	"github.com/aar-agent/aar-exec/plan"
	"github.com/aar-agent/aar-exec/policy"
	"github.com/aar-agent/aar-exec/shellargs"
)

// aar-exec's own exit codes; the command's status passes through as is.
const (
	exitTimeout  = 124
	exitFailed   = 125
	exitDenied   = 126
	exitNotFound = 127
)

// An exitError ends aar-exec with its code after one line on stderr.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// failed is aar-exec's own failure (125): bad input, flag or config, or a
// sandbox that cannot be set up. The message says what to do.
func failed(format string, args ...any) error {
	return &exitError{exitFailed, fmt.Sprintf(format, args...)}
}

// denied is a refusal by policy (126).
func denied(format string, args ...any) error {
	return &exitError{exitDenied, fmt.Sprintf(format, args...)}
}

// An app is one aar-exec process: its streams and environment.
type app struct {
	stdin          *os.File
	stdout, stderr io.Writer
	environ        []string
}

func (a *app) getenv(name string) string {
	for i := len(a.environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(a.environ[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// warnf prints a warning unless --quiet.
func (a *app) warnf(s *settings, format string, args ...any) {
	if s == nil || !s.quiet {
		fmt.Fprintf(a.stderr, "aar-exec: warning: "+format+"\n", args...)
	}
}

// Main runs aar-exec with args (args[0] included) and returns the exit
// code; a command killed by a signal has that signal re-raised first.
func Main(args []string) int {
	a := &app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, environ: os.Environ()}
	code, err := a.main(args)
	if err != nil {
		var ee *exitError
		if !errors.As(err, &ee) {
			ee = &exitError{exitFailed, err.Error()}
		}
		// One line, whatever the error quoted.
		msg := strings.ReplaceAll(strings.TrimSpace(ee.msg), "\n", " ")
		fmt.Fprintf(a.stderr, "aar-exec: %s\n", msg)
		return ee.code
	}
	return code
}

func (a *app) main(args []string) (int, error) {
	if len(args) == 0 {
		args = []string{"aar-exec"}
	}
	argv0, rest := args[0], args[1:]
	shim := shimShell(argv0)
	if shim == "" && len(rest) > 0 {
		switch rest[0] {
		case "check":
			return a.check(rest[1:])
		case "doctor", "version", "redact", "audit", "install-shims", "wsl":
			return a.subcommand(rest)
		case "help":
			fmt.Fprint(a.stdout, usageText)
			return 0, nil
		}
	}
	inv, err := shellargs.Parse(argv0, rest, ownFlag)
	if err != nil {
		return 0, failed("%v", err)
	}
	switch {
	case shim == "" && inv.Command != nil && len(inv.Params) > 0 && inv.Params[0] == "--":
		return 0, failed("-c and -- both given; use -c 'STRING' for a shell command or -- PROG ARGS... for a program, not both")
	case inv.Help && shim == "":
		fmt.Fprint(a.stdout, usageText)
		return 0, nil
	case inv.Version && shim == "":
		fmt.Fprintln(a.stdout, versionString())
		return 0, nil
	case inv.Help || inv.Version:
		// Tools probe "bash --version" through the shim: they get bash's answer.
		flag := "--version"
		if inv.Help {
			flag = "--help"
		}
		return 0, syscall.Exec(shim, []string{filepath.Base(shim), flag}, a.environ)
	}
	return a.run(inv, shim)
}

// shimShell returns the real shell a shim named sh or bash wraps, or "".
func shimShell(argv0 string) string {
	name := strings.TrimPrefix(filepath.Base(argv0), "-")
	switch name {
	case "sh", "bash":
		return "/bin/" + name
	}
	return ""
}

// A job is what one invocation asks to run, in the shape the policy judges
// and the shape the launcher executes.
type job struct {
	req         policy.Request
	path        string // the program, when argv[0] is only its name
	argv        []string
	stdin       *os.File // the judged stdin script, when there is one
	display     string   // the command for the audit log and prompts
	interactive bool
}

// run is the main path: settle the settings, judge the command, record
// the decision, run it in the sandbox and pass its status on.
func (a *app) run(inv *shellargs.Invocation, shim string) (int, error) {
	s, err := a.resolve(inv.Own, inv.Argv == nil)
	if err != nil {
		return 0, err
	}
	phase.Mark("settings")
	j, err := a.job(inv, s, shim)
	if err != nil {
		return 0, err
	}
	if j.stdin != nil {
		defer j.stdin.Close()
	}
	pol, err := policy.Compile(s.cfg, s.policyEnv())
	if err != nil {
		return 0, failed("%v; fix the config file", err)
	}
	var d policy.Decision
	if j.interactive {
		d = policy.Decision{Action: policy.Allow, Rule: "interactive",
			Reason: "an interactive shell: per-command policy cannot apply, the sandbox does"}
	} else {
		d = pol.Check(j.req)
	}
	phase.Mark("decided")

	rec := a.newRecord(s, j, d)
	log, err := a.openAudit(s)
	if err != nil {
		return 0, err
	}
	defer log.close()

	if d.Action == policy.Ask {
		d = a.approve(s, j, d)
		setDecision(rec, d)
	}
	if d.Action != policy.Allow {
		if err := log.deny(rec); err != nil {
			return 0, err
		}
		hint := cmp.Or(d.Hint(), "change the command")
		if d.Action == policy.Ask {
			return 0, denied("needs approval and there is no terminal to ask on (%s): %s; to allow it: %s", d.Rule, d.Reason, hint)
		}
		return 0, denied("denied by policy (%s): %s; to allow it: %s", d.Rule, d.Reason, hint)
	}

	if s.fallback != "" {
		a.warnf(s, "%s; running unconfined in local mode (auto)", s.fallback)
	}
	p, err := a.plan(s, j, pol, rec)
	if err != nil {
		return 0, err
	}
	phase.Mark("planned")
	res, err := launch(context.Background(), s, p, func(e plan.Enforcement) error {
		for _, m := range e.Missing {
			a.warnf(s, "not enforced: %s", m)
		}
		err := log.start(rec, e)
		phase.Mark("start-record")
		return err
	})
	if err != nil {
		log.failed(rec, err)
		return 0, launchError(err)
	}
	if err := log.end(rec, res); err != nil {
		return 0, err
	}
	phase.Mark("end-record")
	return exitCode(res)
}

// launchError maps a launcher's error onto aar-exec's exit codes.
func launchError(err error) error {
	var ee *exitError
	switch {
	case errors.As(err, &ee):
		return ee
	case errors.Is(err, plan.ErrNotFound):
		return &exitError{exitNotFound, fmt.Sprintf("%v; check the name and PATH", err)}
	case errors.Is(err, plan.ErrDenied):
		return &exitError{exitDenied, err.Error()}
	}
	return &exitError{exitFailed, fmt.Sprintf("%v; run aar-exec doctor to see what this machine can enforce", err)}
}

// exitCode turns the command's end into ours: its status passes through,
// a timeout is 124, and a signal death is re-raised on aar-exec itself.
func exitCode(res plan.Result) (int, error) {
	switch {
	case res.TimedOut:
		return 0, &exitError{exitTimeout, "timed out; the command and everything it started were killed (raise --timeout if it needs longer)"}
	case res.Signal != 0:
		reraise(res.Signal)
		return 128 + res.Signal, nil
	}
	return res.ExitCode, nil
}

const usageText = `aar-exec runs a command under a policy and the operating system's sandbox.

Usage:
  aar-exec [flags] -- PROG ARGS...       run PROG directly (no shell)
  aar-exec [flags] -c 'STRING' [ARG0...] run STRING through the shell
  aar-exec [flags] [bash options] SCRIPT  run a script file
  aar-exec [flags]                        read a script from stdin, or an interactive shell on a terminal
  aar-exec check [flags] (-c STRING | -- ARGV)   print the policy decision as JSON
  aar-exec doctor [--json]                what this machine can enforce
  aar-exec redact                         scrub secrets from stdin to stdout
  aar-exec audit init | audit verify FILE
  aar-exec install-shims DIR              DIR/bash and DIR/sh that wrap /bin/bash and /bin/sh
  aar-exec wsl setup|status|reset|init-profiles
  aar-exec version

Flags:
  --workspace DIR       the writable root (default: git top-level or working directory)
  --mode MODE           local, linux, windows, wsl or auto (default auto)
  --config FILE         config file (default ~/.aar/config.json when present)
  --audit-log FILE      audit log; - for stderr, off to disable
  --max-memory-mb N     memory cap (default 512)
  --max-processes N     process cap
  --timeout DURATION    kill the whole command tree after this long (exit 124)
  --allow-write PATH    another writable path (repeatable)
  --env NAME            pass this environment variable through (repeatable)
  --shell PATH          the shell for -c (default /bin/sh)
  --best-effort         run with weaker confinement rather than refuse
  --read-only           nothing is writable, not even the workspace
  --allow-home          allow the home directory itself as workspace
  --allow-secret-reads  keep credential stores readable (linux mode)
  --quiet               no warnings
  Aar safety flags: --read-only, --require-approval, --no-require-approval,
  --restrict-to-cwd, --no-restrict-to-cwd, --denied-paths GLOBS, --allowed-paths GLOBS
Each flag can also be set with AAR_<NAME> (for example AAR_WORKSPACE, AAR_MODE).

Exit codes: the command's own status; 124 timeout; 125 aar-exec failed;
126 denied by policy; 127 command not found.
`
