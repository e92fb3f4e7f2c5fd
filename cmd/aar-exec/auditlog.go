package main

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/aar-agent/aar-exec/audit"
	"github.com/aar-agent/aar-exec/plan"
	"github.com/aar-agent/aar-exec/policy"
)

// auditLog writes this invocation's lines. A nil log (audit off) writes
// nothing. When the log cannot be written, the command does not run,
// unless the config makes audit best-effort.
type auditLog struct {
	log        *audit.Log
	bestEffort bool
	app        *app
	s          *settings
}

func (a *app) openAudit(s *settings) (*auditLog, error) {
	l := &auditLog{bestEffort: s.auditBestEffort, app: a, s: s}
	if s.auditPath == "" {
		return l, nil
	}
	// Inside another run's sandbox the log and key are out of reach, as
	// they must be; that run's record already covers this whole tree.
	nested := a.getenv(parentVar) != ""
	var key []byte
	if s.hmacKeyFile != "" {
		k, err := audit.ReadKey(s.hmacKeyFile)
		if err != nil && nested {
			return l, nil
		}
		if err != nil {
			return nil, failed("audit key %s: %v; create it with aar-exec audit init", s.hmacKeyFile, err)
		}
		key = k
	}
	log, err := audit.Open(s.auditPath, key)
	if err != nil && nested && (errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS)) {
		return l, nil
	}
	if err != nil {
		if l.bestEffort {
			a.warnf(s, "audit log %s cannot be opened: %v; running without it (audit.best_effort)", s.auditPath, err)
			return l, nil
		}
		return nil, failed("audit log %s cannot be opened: %v; fix it, pass --audit-log FILE, or set aar_exec.audit.best_effort", s.auditPath, err)
	}
	l.log = log
	return l, nil
}

func (l *auditLog) write(r *audit.Record) error {
	if err := l.append(r); err != nil {
		return failed("audit log %s cannot be written: %v; the command did not run", l.s.auditPath, err)
	}
	return nil
}

// append writes r, or with a best-effort log warns that it could not;
// the error is for the caller to word.
func (l *auditLog) append(r *audit.Record) error {
	if l == nil || l.log == nil {
		return nil
	}
	if r.User == "" {
		// Looked up here, not in newRecord: the start line is written
		// alongside the sandbox build, which takes this 0.06 ms of
		// reading /etc/passwd off the launch path, and with the audit
		// log off nobody asks.
		r.User = userName()
	}
	if err := l.log.Write(r); err != nil {
		if l.bestEffort {
			l.app.warnf(l.s, "audit log %s: %v", l.s.auditPath, err)
			return nil
		}
		return err
	}
	return nil
}

func (l *auditLog) close() {
	if l != nil && l.log != nil {
		l.log.Close()
	}
}

func (l *auditLog) deny(r *audit.Record) error {
	r.Event = "deny"
	return l.write(r)
}

func (l *auditLog) start(r *audit.Record, e plan.Enforcement) error {
	r.Event = "start"
	r.Enforced = &e
	return l.write(r)
}

// end writes the end line. When it cannot, the run's record is
// incomplete: that is aar-exec's failure, not the command's status.
func (l *auditLog) end(r *audit.Record, res plan.Result) error {
	r.Event = "end"
	if res.Signal != 0 {
		r.Signal = signalName(res.Signal)
	} else {
		code := res.ExitCode
		r.ExitCode = &code
	}
	r.Duration = res.Duration
	r.TimedOut = res.TimedOut
	if err := l.append(r); err != nil {
		return failed("audit log %s: the end line cannot be written: %v; the command ran and ended with %s; check the log's disk and limits",
			l.s.auditPath, err, endedWith(res))
	}
	return nil
}

// endedWith says how the command ended, for a message.
func endedWith(res plan.Result) string {
	switch {
	case res.TimedOut:
		return "a timeout"
	case res.Signal != 0:
		return signalName(res.Signal)
	}
	return fmt.Sprintf("status %d", res.ExitCode)
}

func (l *auditLog) failed(r *audit.Record, err error) {
	r.Event = "end"
	r.Error = err.Error()
	l.write(r)
}

// newRecord starts the audit record of this invocation; the audit package
// redacts the command, argv and error text before anything is written.
func (a *app) newRecord(s *settings, j *job, d policy.Decision) *audit.Record {
	r := &audit.Record{
		ID:        audit.NewID(),
		Session:   a.getenv("AAR_SESSION_ID"),
		Command:   j.display,
		Argv:      j.argv,
		Cwd:       s.cwd,
		Workspace: s.workspace,
		Mode:      s.mode,
		PID:       os.Getpid(),
	}
	setDecision(r, d)
	return r
}

func userName() string {
	if u, err := user.Current(); err == nil {
		return u.Username
	}
	return strconv.Itoa(os.Getuid())
}

func signalName(sig int) string {
	if name := syscallSignalName(syscall.Signal(sig)); name != "" {
		return name
	}
	return fmt.Sprintf("signal %d", sig)
}

func (a *app) auditInit(own []string, keyPath string) (int, error) {
	s, err := a.resolve(own, false)
	if err != nil {
		return 0, err
	}
	path := cmp.Or(keyPath, s.hmacKeyFile, filepath.Join(filepath.Dir(s.approvalsFile), "audit.key"))
	if err := audit.NewKey(path); err != nil {
		return 0, failed("audit init: %v", err)
	}
	fmt.Fprintf(a.stdout, "created %s (mode 0600); set \"aar_exec\": {\"audit\": {\"hmac_key_file\": %q}} in the config to chain the audit log\n", path, path)
	return 0, nil
}

func (a *app) auditVerify(own []string, file, keyPath string) (int, error) {
	s, err := a.resolve(own, false)
	if err != nil {
		return 0, err
	}
	path := cmp.Or(keyPath, s.hmacKeyFile, filepath.Join(filepath.Dir(s.approvalsFile), "audit.key"))
	key, err := audit.ReadKey(path)
	if err != nil {
		return 0, failed("audit verify: key %s: %v", path, err)
	}
	f, err := os.Open(file)
	if err != nil {
		return 0, failed("audit verify: %v", err)
	}
	defer f.Close()
	if err := audit.Verify(f, key); err != nil {
		fmt.Fprintf(a.stdout, "BROKEN: %v\n", err)
		return 1, nil
	}
	fmt.Fprintln(a.stdout, "OK")
	return 0, nil
}

func setDecision(r *audit.Record, d policy.Decision) {
	r.Decision, r.Rule, r.Reason = d.Action.String(), d.Rule, d.Reason
}
