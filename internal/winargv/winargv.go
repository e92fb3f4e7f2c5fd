// Package winargv quotes and splits Windows command lines exactly as
// CreateProcess hands them to CommandLineToArgvW, so an argv crosses to a
// Windows child (the windows launcher's command, wsl.exe) unchanged.
package winargv

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxCommandLine is the longest command line CreateProcessW accepts, in
// UTF-16 code units including the terminating NUL.
const MaxCommandLine = 32767

// Quote quotes s so that CommandLineToArgvW reads it back as exactly s
// when it is not the first word of the command line. Arguments without
// whitespace or double quotes are left alone. The result is meant for
// CreateProcess, not for cmd.exe: characters such as %, ^ and & are only
// special to cmd.exe and pass through untouched.
func Quote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\v\r\"") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 2)
	appendQuoted(&b, s)
	return b.String()
}

// appendQuoted writes s in double quotes: every run of backslashes before a
// quote, or before the closing quote, is doubled, and each quote gets one
// more backslash.
func appendQuoted(b *strings.Builder, s string) {
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			for ; slashes > 0; slashes-- {
				b.WriteByte('\\')
			}
			b.WriteByte('\\')
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	for ; slashes > 0; slashes-- {
		b.WriteByte('\\')
	}
	b.WriteByte('"')
}

// Join builds the command line that CommandLineToArgvW, and so
// [Split], splits back into args. args[0] is the program, which
// CommandLineToArgvW reads without backslash escapes: it is put in quotes
// when it is empty or holds whitespace, and it cannot hold a double quote
// (no Windows file name does). The others are quoted by [Quote].
//
// The result is exact only for arguments that pass [Check]: no NUL byte,
// valid UTF-8, and a program without quotes.
func Join(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i == 0 {
			if a == "" || strings.ContainsAny(a, " \t") {
				b.WriteByte('"')
				b.WriteString(a)
				b.WriteByte('"')
			} else {
				b.WriteString(a)
			}
			continue
		}
		b.WriteByte(' ')
		if a != "" && !strings.ContainsAny(a, " \t\n\v\r\"") {
			b.WriteString(a)
		} else {
			appendQuoted(&b, a)
		}
	}
	return b.String()
}

// Check reports why args cannot cross a Windows command line intact:
// the command line is UTF-16 and NUL-terminated, so NUL bytes and invalid
// UTF-8 would be cut or replaced, and it has a length limit.
func Check(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("empty command line")
	}
	for i, a := range args {
		if strings.IndexByte(a, 0) >= 0 {
			return fmt.Errorf("argument %d contains a NUL byte", i)
		}
		if !utf8.ValidString(a) {
			return fmt.Errorf("argument %d is not valid UTF-8", i)
		}
	}
	if strings.IndexByte(args[0], '"') >= 0 {
		return fmt.Errorf("program %q contains a double quote", args[0])
	}
	if n := utf16Len(Join(args)); n >= MaxCommandLine {
		return fmt.Errorf("command line is %d characters long, over the Windows limit of %d", n, MaxCommandLine-1)
	}
	return nil
}

// Split splits a command line the way CommandLineToArgvW does:
// the first word is the program, which ends at the next quote if it starts
// with one and at whitespace otherwise; the other words follow the
// backslash-and-quote rules, including the rule that three quotes in a row
// inside a quoted word make one literal quote. An empty line gives nil,
// where CommandLineToArgvW would return the running program's path.
func Split(s string) []string {
	if s == "" {
		return nil
	}
	var args []string
	i := 0
	if s[0] == '"' {
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			return []string{s[1:]}
		}
		args = append(args, s[1:1+end])
		i = end + 2
	} else {
		end := strings.IndexAny(s, " \t")
		if end < 0 {
			return []string{s}
		}
		args = append(args, s[:end])
		i = end
	}
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i == len(s) {
		return args
	}
	var cur []byte
	quotes, slashes := 0, 0 // quotes is odd inside a quoted run
	for i < len(s) {
		c := s[i]
		switch {
		case (c == ' ' || c == '\t') && quotes == 0:
			args = append(args, string(cur))
			cur = cur[:0:0]
			slashes = 0
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i == len(s) {
				return args
			}
			continue
		case c == '\\':
			cur = append(cur, c)
			slashes++
			i++
			continue
		case c == '"':
			if slashes%2 == 0 {
				// Half the backslashes are kept and the quote opens or
				// closes a quoted run.
				cur = cur[:len(cur)-slashes/2]
				quotes++
			} else {
				// Half the backslashes are kept and the quote is literal.
				cur = cur[:len(cur)-slashes/2-1]
				cur = append(cur, '"')
			}
			slashes = 0
			i++
			for i < len(s) && s[i] == '"' {
				quotes++
				if quotes == 3 {
					cur = append(cur, '"')
					quotes = 0
				}
				i++
			}
			if quotes == 2 {
				quotes = 0
			}
			continue
		default:
			cur = append(cur, c)
			slashes = 0
			i++
		}
	}
	return append(args, string(cur))
}

// utf16Len is the length of s in UTF-16 code units, the unit of Windows'
// command-line limit.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
