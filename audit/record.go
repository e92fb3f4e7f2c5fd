package audit

import (
	"fmt"
	"os"
	"time"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/plan"
	"github.com/aar-agent/aar-exec/redact"
)

// Events a [Record] can describe.
const (
	EventStart = "start" // the command is about to run
	EventEnd   = "end"   // the command has ended
	EventDeny  = "deny"  // the command was refused and did not run
)

// A Record is one line of the audit log. The JSON field names, given in
// each field's comment, are stable; empty fields are left out.
type Record struct {
	Time      time.Time         // "time": RFC 3339, UTC, milliseconds; zero means now
	Event     string            // "event": EventStart, EventEnd or EventDeny
	ID        string            // "id": one per invocation, from NewID; start and end share it
	Session   string            // "session": AAR_SESSION_ID, when the caller set it
	Command   string            // "command": the command line as one string, redacted
	Argv      []string          // "argv": the command's arguments, redacted
	Cwd       string            // "cwd": the working directory
	Workspace string            // "workspace": the writable root
	Mode      string            // "mode": how it ran (sandbox, local, ...)
	Decision  string            // "decision": what the policy decided
	Rule      string            // "rule": the policy rule that decided
	Reason    string            // "reason": why, in words; redacted
	Enforced  *plan.Enforcement // "enforced": what the sandbox put in force
	PID       int               // "pid": aar-exec's process id; zero means this process
	User      string            // "user": who ran it
	ExitCode  *int              // "exit_code": on end, the command's exit status
	Signal    string            // "signal": on end, the signal that killed it (SIGTERM)
	Duration  time.Duration     // "duration_ms": on end, how long the whole tree ran
	TimedOut  bool              // "timed_out": on end, whether the timeout fired
	Error     string            // "error": what went wrong, redacted

	// The start and end lines of a command carry the same command line;
	// redacting it once keeps a large command from costing twice.
	command redaction
}

// A redaction is a string and its redacted form.
type redaction struct{ in, out string }

// redactedCommand returns Command redacted, from the cache while Command
// is unchanged.
func (r *Record) redactedCommand() string {
	if r.command.in != r.Command {
		r.command = redaction{r.Command, redact.String(r.Command)}
	}
	return r.command.out
}

// wire is the JSON form of a Record, written by appendJSON exactly as
// encoding/json would write it with these tags. Field order is the order
// on disk; "mac" is appended after it by the writer.
type wire struct {
	Time       string            `json:"time"`
	Event      string            `json:"event"`
	ID         string            `json:"id"`
	Session    string            `json:"session,omitempty"`
	Command    string            `json:"command,omitempty"`
	Argv       []string          `json:"argv,omitempty"`
	Cwd        string            `json:"cwd,omitempty"`
	Workspace  string            `json:"workspace,omitempty"`
	Mode       string            `json:"mode,omitempty"`
	Decision   string            `json:"decision,omitempty"`
	Rule       string            `json:"rule,omitempty"`
	Reason     string            `json:"reason,omitempty"`
	Enforced   *plan.Enforcement `json:"enforced,omitempty"`
	PID        int               `json:"pid"`
	User       string            `json:"user,omitempty"`
	ExitCode   *int              `json:"exit_code,omitempty"`
	Signal     string            `json:"signal,omitempty"`
	DurationMS *int64            `json:"duration_ms,omitempty"`
	TimedOut   bool              `json:"timed_out,omitempty"`
	Error      string            `json:"error,omitempty"`
}

// Size limits that keep one line well under what Verify and log shippers
// accept. Longer fields are cut at a rune boundary and marked.
const (
	maxField     = 64 << 10  // command, reason, error
	maxArg       = 16 << 10  // one argv element
	maxArgvTotal = 256 << 10 // all argv elements together
	// MaxLine is the longest line Write produces and Verify accepts.
	MaxLine = 1 << 20
)

const timeLayout = "2006-01-02T15:04:05.000Z07:00"

// encode redacts r and marshals it, without a trailing newline.
func encode(r *Record) ([]byte, error) {
	switch r.Event {
	case EventStart, EventEnd, EventDeny:
	default:
		return nil, fmt.Errorf("audit: record has event %q, want start, end or deny", r.Event)
	}
	if r.ID == "" {
		return nil, fmt.Errorf("audit: record has no id")
	}
	t := r.Time
	if t.IsZero() {
		t = time.Now()
	}
	pid := r.PID
	if pid == 0 {
		pid = os.Getpid()
	}
	w := wire{
		Time:      t.UTC().Format(timeLayout),
		Event:     r.Event,
		ID:        r.ID,
		Session:   clip(r.Session, 256),
		Command:   clip(r.redactedCommand(), maxField),
		Argv:      clipArgv(redact.Argv(r.Argv)),
		Cwd:       clip(r.Cwd, maxField),
		Workspace: clip(r.Workspace, maxField),
		Mode:      r.Mode,
		Decision:  r.Decision,
		Rule:      clip(r.Rule, maxField),
		Reason:    clip(redact.String(r.Reason), maxField),
		Enforced:  r.Enforced,
		PID:       pid,
		User:      clip(r.User, 256),
		ExitCode:  r.ExitCode,
		Signal:    r.Signal,
		TimedOut:  r.TimedOut,
		Error:     clip(redact.String(r.Error), maxField),
	}
	if r.Event == EventEnd {
		ms := r.Duration.Milliseconds()
		w.DurationMS = &ms
	}
	b := w.appendJSON(make([]byte, 0, 512))
	if len(b) > MaxLine-100 {
		return nil, fmt.Errorf("audit: record of %d bytes is too long", len(b))
	}
	return b, nil
}

// clip cuts s to at most n bytes at a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("…[%d bytes cut]", len(s)-cut)
}

func clipArgv(argv []string) []string {
	total := 0
	for i, a := range argv {
		argv[i] = clip(a, maxArg)
		total += len(argv[i])
		if total > maxArgvTotal {
			return append(argv[:i:i], fmt.Sprintf("…[%d more arguments cut]", len(argv)-i))
		}
	}
	return argv
}
