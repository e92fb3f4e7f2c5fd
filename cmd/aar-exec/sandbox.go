package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/aar-agent/aar-exec/audit"
	"github.com/aar-agent/aar-exec/launcher/linux"
	"github.com/aar-agent/aar-exec/launcher/local"
	"github.com/aar-agent/aar-exec/plan"
	"github.com/aar-agent/aar-exec/policy"
	"github.com/aar-agent/aar-exec/redact"
)

// policyEnv tells the policy the facts of this run.
func (s *settings) policyEnv() policy.Env {
	return policy.Env{
		Workspace:      s.workspace,
		Cwd:            s.cwd,
		Home:           s.home,
		Mode:           s.mode,
		WritesEnforced: s.mode == "linux" || s.mode == "windows",
	}
}

// plan turns the settings and the job into what the launcher executes.
func (a *app) plan(s *settings, j *job, pol *policy.Policy, rec *audit.Record) (*plan.Plan, error) {
	p := &plan.Plan{
		Path:         j.path,
		Argv:         j.argv,
		Dir:          s.cwd,
		Env:          append(commandEnv(a.environ, s), parentVar+"="+rec.ID),
		Stdin:        j.stdin,
		Workspace:    s.workspace,
		Writable:     s.allowWrite,
		ReadOnly:     s.readOnly,
		MaxMemoryMB:  s.maxMemoryMB,
		MaxProcesses: s.maxProcesses,
		Timeout:      s.timeout,
		BestEffort:   s.bestEffort,
	}
	if s.mode == "linux" {
		// aar-exec's own files stay unreadable even with secret reads
		// allowed: a command that could open the audit log could also
		// flock it, stalling every other aar-exec and losing its own end
		// line, and one that could read the key could forge a chain.
		p.DenyRead = s.ownState()
		if !s.secretReads {
			p.DenyRead = s.secretLocations(pol)
		}
	}
	return p, nil
}

// checkWritable refuses a workspace or --allow-write path whose whole
// tree must never be writable (/, system directories, the home itself),
// or that is or lies in a credential store. The paths come resolved, so
// a symlink a command planted in the workspace (ln -s ~/.ssh sub), which
// a caller that keeps the working directory between commands may then
// cd into, cannot make a store the next command's workspace: Landlock
// denies reading it but would grant writing it (authorized_keys).
func (s *settings) checkWritable() error {
	stores := s.credentialStores()
	for _, w := range append([]string{s.workspace}, s.allowWrite...) {
		if err := linux.CheckWritable(w, s.home, s.allowHome); err != nil {
			return failed("%v", err)
		}
		for _, d := range stores {
			if policy.Within(w, d, "/") {
				return failed("refusing to make %q writable: it lies in the credential store %s; run the command from another directory", w, d)
			}
		}
	}
	return nil
}

// credentialStores are the secret stores of the caller's home and root's
// and the system's, also where they really live: a home reached through
// a symlink, or a store that is one. Only those get EvalSymlinks; one
// Lstat says most stores are plain or missing.
func (s *settings) credentialStores() []string {
	var homes []string
	for _, h := range []string{s.home, "/root"} {
		if h == "" || h == "/" || slices.Contains(homes, h) {
			continue
		}
		homes = append(homes, h)
		if r, err := filepath.EvalSymlinks(h); err == nil && r != h {
			homes = append(homes, r)
		}
	}
	out := append([]string{}, systemSecrets...)
	for _, h := range homes {
		for _, rel := range secretStores {
			p := filepath.Join(h, rel)
			out = append(out, p)
			if st, err := os.Lstat(p); err == nil && st.Mode()&os.ModeSymlink != 0 {
				if r, err := filepath.EvalSymlinks(p); err == nil {
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// launch runs the plan with the launcher of the chosen mode.
func launch(ctx context.Context, s *settings, p *plan.Plan, started plan.Started) (plan.Result, error) {
	switch s.mode {
	case "linux":
		return linux.Run(ctx, p, started)
	case "windows":
		return runWindows(ctx, s, p, started)
	case "wsl":
		return runWSL(ctx, s, p, started)
	}
	return local.Run(ctx, p, started)
}

// secretStores are the credential stores, relative to a home directory,
// whose contents linux mode makes unreadable in the kernel.
var secretStores = []string{".ssh", ".aws", ".azure", ".config/gcloud", ".gnupg", ".kube",
	".docker/config.json", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".config/gh",
	".password-store"}

// systemSecrets are unreadable for every command, root included.
var systemSecrets = []string{"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d"}

// kernelReadable are denied_paths entries that stay readable in the
// kernel: every tool that maps a uid to a name reads /etc/passwd, which is
// world-readable by design. The policy still denies commands that name it.
var kernelReadable = []string{"/etc/passwd"}

// secretLocations lists what the launcher makes unreadable: the stores in
// the caller's home and root's, the system files, aar-exec's own state,
// and every absolute or ~-anchored entry of denied_paths.
func (s *settings) secretLocations(pol *policy.Policy) []string {
	var out []string
	homes := []string{s.home}
	if os.Geteuid() == 0 && s.home != "/root" {
		homes = append(homes, "/root")
	}
	for _, h := range homes {
		if h == "" || h == "/" {
			continue
		}
		for _, rel := range secretStores {
			out = append(out, filepath.Join(h, rel))
		}
	}
	out = append(out, systemSecrets...)
	out = append(out, s.ownState()...)
	for _, d := range pol.DeniedLocations() {
		if !slices.Contains(kernelReadable, d) {
			out = append(out, d)
		}
	}
	// A symlinked store is denied where it really lives too. Most stores
	// do not exist; one Lstat says so, where EvalSymlinks would walk
	// every component of each (0.15 ms a launch).
	for _, p := range out {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// parentVar tells an aar-exec started inside the sandbox (a sub-make's
// recipe, a script that calls aar-exec) the id of the run it is part of.
const parentVar = "AAR_PARENT_ID"

// ownState is aar-exec's own files: its state directory (approvals, the
// default audit log and key), the audit log and the HMAC key wherever the
// config puts them.
func (s *settings) ownState() []string {
	out := []string{filepath.Dir(s.approvalsFile)}
	if s.auditPath != "" && s.auditPath != "-" {
		out = append(out, s.auditPath)
	}
	if s.hmacKeyFile != "" {
		out = append(out, s.hmacKeyFile)
	}
	return out
}

// codeVars make a shell run code the policy never saw.
func codeVar(name string) bool {
	switch name {
	case "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND":
		return true
	}
	return strings.HasPrefix(name, "BASH_FUNC_")
}

// strictVars are what env: strict passes, besides --env names.
var strictVars = []string{"PATH", "HOME", "TERM", "LANG"}

// commandEnv is the command's environment: the caller's, minus variables
// that would run unjudged code, and in linux mode minus secret-looking
// ones; --env names always pass. env: strict passes only a short list.
func commandEnv(environ []string, s *settings) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok {
			continue
		}
		switch {
		case name == parentVar:
			continue
		case slices.Contains(s.passEnv, name):
		case s.envMode == "strict" && !slices.Contains(strictVars, name):
			continue
		case codeVar(name):
			continue
		case s.mode == "linux" && (redact.SecretName(name) || redact.SecretValue(value)):
			continue
		}
		out = append(out, kv)
	}
	return out
}
