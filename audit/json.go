package audit

import (
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/plan"
)

// appendJSON appends w as encoding/json would marshal it, byte for byte
// (TestAppendJSONMatchesMarshal holds it to that). Marshal's first call
// reflects over wire and plan.Enforcement to build its encoders, 0.2 ms
// of every aar-exec launch; this costs a few microseconds.
func (w *wire) appendJSON(b []byte) []byte {
	b = append(b, `{"time":`...)
	b = appendString(b, w.Time)
	b = append(b, `,"event":`...)
	b = appendString(b, w.Event)
	b = append(b, `,"id":`...)
	b = appendString(b, w.ID)
	b = appendField(b, "session", w.Session)
	b = appendField(b, "command", w.Command)
	if len(w.Argv) > 0 {
		b = append(b, `,"argv":`...)
		b = appendStrings(b, w.Argv)
	}
	b = appendField(b, "cwd", w.Cwd)
	b = appendField(b, "workspace", w.Workspace)
	b = appendField(b, "mode", w.Mode)
	b = appendField(b, "decision", w.Decision)
	b = appendField(b, "rule", w.Rule)
	b = appendField(b, "reason", w.Reason)
	if w.Enforced != nil {
		b = append(b, `,"enforced":`...)
		b = appendEnforcement(b, w.Enforced)
	}
	b = append(b, `,"pid":`...)
	b = strconv.AppendInt(b, int64(w.PID), 10)
	b = appendField(b, "user", w.User)
	if w.ExitCode != nil {
		b = append(b, `,"exit_code":`...)
		b = strconv.AppendInt(b, int64(*w.ExitCode), 10)
	}
	b = appendField(b, "signal", w.Signal)
	if w.DurationMS != nil {
		b = append(b, `,"duration_ms":`...)
		b = strconv.AppendInt(b, *w.DurationMS, 10)
	}
	if w.TimedOut {
		b = append(b, `,"timed_out":true`...)
	}
	b = appendField(b, "error", w.Error)
	return append(b, '}')
}

func appendEnforcement(b []byte, e *plan.Enforcement) []byte {
	b = append(b, `{"mechanism":`...)
	b = appendString(b, e.Mechanism)
	if e.ABI != 0 {
		b = append(b, `,"abi":`...)
		b = strconv.AppendInt(b, int64(e.ABI), 10)
	}
	if len(e.FSRights) > 0 {
		b = append(b, `,"fs_rights":`...)
		b = appendStrings(b, e.FSRights)
	}
	if len(e.Scopes) > 0 {
		b = append(b, `,"scopes":`...)
		b = appendStrings(b, e.Scopes)
	}
	if len(e.Rlimits) > 0 {
		b = append(b, `,"rlimits":{`...)
		// Marshal sorts map keys.
		for i, k := range slices.Sorted(maps.Keys(e.Rlimits)) {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = strconv.AppendUint(b, e.Rlimits[k], 10)
		}
		b = append(b, '}')
	}
	b = append(b, `,"read_denial":`...)
	b = strconv.AppendBool(b, e.ReadDenial)
	if e.ReadOnlyMounts {
		b = append(b, `,"readonly_mounts":true`...)
	}
	if len(e.Missing) > 0 {
		b = append(b, `,"missing":`...)
		b = appendStrings(b, e.Missing)
	}
	return append(b, '}')
}

// appendField appends ,"name":"value", or nothing for an empty value
// (omitempty).
func appendField(b []byte, name, value string) []byte {
	if value == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, value)
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does:
// HTML-safe (<, > and & escaped), U+2028 and U+2029 escaped, and each byte
// of invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
