package main

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/policy"
	"github.com/aar-agent/aar-exec/shellargs"
	"mvdan.cc/sh/v3/syntax"
)

// maxScriptBytes bounds a script read from a file or stdin. A script file
// is handed to the shell as its -c string, which the kernel caps at 128 KiB
// per argument (MAX_ARG_STRLEN).
const (
	maxScriptFileBytes  = 128<<10 - 1
	maxStdinScriptBytes = 16 << 20
)

// job works out what runs and what the policy judges, so that the string
// the policy checked is exactly the string the shell runs.
func (a *app) job(inv *shellargs.Invocation, s *settings, shim string) (*job, error) {
	if inv.Argv != nil {
		if len(inv.Argv) == 0 || inv.Argv[0] == "" {
			return nil, failed("no command after --; give a program to run, as in aar-exec -- ls -l")
		}
		return &job{req: policy.Request{Argv: inv.Argv}, argv: inv.Argv, display: joinArgv(inv.Argv)}, nil
	}
	if runtime.GOOS == "windows" && s.mode != "wsl" && s.shell == "" {
		return a.windowsJob(inv)
	}
	shell, err := a.shellFor(inv, s, shim)
	if err != nil {
		return nil, err
	}
	switch {
	case inv.Command != nil:
		if err := checkScript("the -c string", *inv.Command); err != nil {
			return nil, err
		}
		if *inv.Command == "" && len(inv.Params) == 0 {
			return nil, failed("empty command string after -c; give a command, as in aar-exec -c 'ls -l'")
		}
		return &job{req: policy.Request{Script: *inv.Command, Shell: filepath.Base(shell)}, path: shell, argv: inv.ShellArgv(shell), display: *inv.Command}, nil

	case inv.Script != "":
		data, err := readScript(inv.Script, s.cwd)
		if err != nil {
			return nil, err
		}
		// Run the bytes that were judged, not the file again: it could
		// change between the check and the shell's read. $0 stays the
		// script's name, as when bash runs a file.
		c := *inv
		text := string(data)
		c.Command, c.Script = &text, ""
		c.Params = append([]string{inv.Script}, inv.Params...)
		return &job{req: policy.Request{Script: text, Shell: filepath.Base(shell)}, path: shell, argv: c.ShellArgv(shell), display: text}, nil

	case inv.IsInteractive(isTerminal(a.stdin), isTerminal(a.stderr)):
		return &job{path: shell, argv: inv.ShellArgv(shell), interactive: true, display: "(interactive shell)"}, nil

	default: // the script comes on stdin (GitLab, echo ... | su -)
		data, err := io.ReadAll(io.LimitReader(a.stdin, maxStdinScriptBytes+1))
		if err != nil {
			return nil, failed("read the script from stdin: %v", err)
		}
		if err := checkScript("the script on stdin", string(data)); err != nil {
			return nil, err
		}
		f, err := sealedCopy(data)
		if err != nil {
			return nil, failed("keep the stdin script: %v", err)
		}
		return &job{req: policy.Request{Script: string(data), Shell: filepath.Base(shell)}, path: shell, argv: inv.ShellArgv(shell), stdin: f, display: string(data)}, nil
	}
}

// windowsJob runs a -c string through cmd.exe the way Node does
// (%ComSpec% /d /s /c "STRING"); other shells need --shell.
func (a *app) windowsJob(inv *shellargs.Invocation) (*job, error) {
	if inv.Command == nil {
		return nil, failed("on Windows only -c 'STRING' and -- PROG ARGS... are supported without --shell; pass --shell with the path of bash.exe for scripts")
	}
	comspec := cmp.Or(a.getenv("ComSpec"), `C:\Windows\System32\cmd.exe`)
	return &job{req: policy.Request{Script: *inv.Command}, path: comspec,
		argv: []string{comspec, "/d", "/s", "/c", *inv.Command}, display: *inv.Command}, nil
}

// shellFor picks the real shell: the shim's own, --shell, or /bin/sh, and
// /bin/bash when the invocation uses options only bash knows.
func (a *app) shellFor(inv *shellargs.Invocation, s *settings, shim string) (string, error) {
	sh := cmp.Or(s.shell, shim)
	if sh == "" {
		sh = "/bin/sh"
		if needsBash(inv) {
			sh = "/bin/bash"
		}
	}
	if s.mode == "wsl" {
		return cmp.Or(s.shell, s.cfg.Safety.Sandbox.WSL.Shell, "sh"), nil // a name inside the distro
	}
	if !filepath.IsAbs(sh) {
		return "", failed("--shell %q is not an absolute path; give the full path, as in --shell /bin/bash", sh)
	}
	// Wrapping ourselves would loop forever.
	if self, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(sh); err == nil {
			if rs, err := filepath.EvalSymlinks(self); err == nil && r == rs {
				return "", failed("the shell %s is aar-exec itself; point --shell at a real shell such as /bin/bash", sh)
			}
		}
	}
	return sh, nil
}

// needsBash reports options /bin/sh (dash) does not accept.
func needsBash(inv *shellargs.Invocation) bool {
	if len(inv.LongOptions) > 0 {
		return true
	}
	for i, o := range inv.Options {
		if o == "-O" || o == "+O" {
			return true
		}
		if (o == "-o" || o == "+o") && i+1 < len(inv.Options) && inv.Options[i+1] == "pipefail" {
			return true
		}
	}
	return false
}

func readScript(name, cwd string) ([]byte, error) {
	f, err := os.Open(absFrom(name, cwd))
	if err != nil {
		return nil, &exitError{exitNotFound, fmt.Sprintf("script %s: %v; check the path", name, err)}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxScriptFileBytes+1))
	if err != nil {
		return nil, failed("read script %s: %v", name, err)
	}
	if len(data) > maxScriptFileBytes {
		return nil, failed("script %s is over %d bytes; split it, or run it with aar-exec -- /bin/sh %s to have only the sandbox judge it", name, maxScriptFileBytes, name)
	}
	return data, checkScript("script "+name, string(data))
}

// checkScript refuses input no shell script has, before the policy sees
// it: bad input is aar-exec's error (125), not a policy decision.
func checkScript(what, s string) error {
	switch {
	case len(s) > policy.MaxScriptSize:
		return failed("%s is %d bytes, over the %d aar-exec judges; split it into smaller scripts", what, len(s), policy.MaxScriptSize)
	case strings.IndexByte(s, 0) >= 0:
		return failed("%s contains a NUL byte; it is not a shell script", what)
	case !utf8.ValidString(s):
		return failed("%s is not valid UTF-8; write other bytes with $'\\xNN'", what)
	}
	return nil
}

func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && f != nil && isatty(f.Fd())
}

// joinArgv writes argv as one shell-quoted line, for logs and prompts.
func joinArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = fmt.Sprintf("%q", a)
		}
		parts[i] = q
	}
	return strings.Join(parts, " ")
}
