package windows

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxCommandLine is CreateProcess's limit on lpCommandLine, in UTF-16 code
// units including the terminating NUL.
const maxCommandLine = 32767

// commandLine quotes argv into the single string CreateProcess takes, so that
// the child's CommandLineToArgvW (and the C runtime) give back exactly argv.
//
// Argument 0 follows its own rule (quotes delimit it, backslashes are
// literal), so it cannot hold a quote; the others follow the classic
// 2n/2n+1 backslash rule.
func commandLine(argv []string) (string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", errors.New("windows launcher: empty command")
	}
	if err := checkStrings("argument", argv); err != nil {
		return "", err
	}
	if strings.ContainsRune(argv[0], '"') {
		return "", fmt.Errorf("windows launcher: program name %q contains a double quote", argv[0])
	}
	var b strings.Builder
	if strings.ContainsAny(argv[0], " \t") {
		b.WriteString(`"` + argv[0] + `"`)
	} else {
		b.WriteString(argv[0])
	}
	for _, a := range argv[1:] {
		b.WriteByte(' ')
		appendArg(&b, a)
	}
	s := b.String()
	if n := utf16Len(s) + 1; n > maxCommandLine {
		return "", fmt.Errorf("windows launcher: command line is %d UTF-16 units long, Windows takes at most %d", n, maxCommandLine)
	}
	return s, nil
}

// appendArg writes one argument (not the first) in C runtime quoting.
func appendArg(b *strings.Builder, a string) {
	if a != "" && !strings.ContainsAny(a, " \t\n\v\"") {
		b.WriteString(a)
		return
	}
	b.WriteByte('"')
	slashes := 0
	for i := 0; i < len(a); i++ {
		c := a[i]
		switch c {
		case '\\':
			slashes++
		case '"':
			// Double the run of backslashes before a quote and escape it.
			b.WriteString(strings.Repeat(`\`, slashes+1))
			slashes = 0
		default:
			slashes = 0
		}
		b.WriteByte(c)
	}
	// Backslashes before the closing quote must be doubled too.
	b.WriteString(strings.Repeat(`\`, slashes))
	b.WriteByte('"')
}

// parseCommandLine is CommandLineToArgvW written in Go (the rules of
// shell32 since Windows 7, as Wine reimplements them), kept to check that
// commandLine round-trips. It returns nil for an empty line.
func parseCommandLine(s string) []string {
	var args []string
	i := 0
	// Argument 0: up to the next quote if it starts with one, else up to
	// blank; backslashes are literal.
	if s == "" {
		return nil
	}
	var cur strings.Builder
	if s[0] == '"' {
		i = 1
		for i < len(s) && s[i] != '"' {
			cur.WriteByte(s[i])
			i++
		}
		if i < len(s) {
			i++
		}
	} else {
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			cur.WriteByte(s[i])
			i++
		}
	}
	args = append(args, cur.String())
	cur.Reset()
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) {
		return args
	}
	qcount, bcount := 0, 0
	inArg := true
	for i < len(s) {
		c := s[i]
		switch {
		case (c == ' ' || c == '\t') && qcount == 0:
			args = append(args, cur.String())
			cur.Reset()
			bcount = 0
			for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			inArg = i < len(s)
			continue
		case c == '\\':
			cur.WriteByte(c)
			bcount++
		case c == '"':
			str := cur.String()
			if bcount%2 == 0 {
				// 2n backslashes and a quote: n backslashes, the quote toggles.
				str = str[:len(str)-bcount/2]
				qcount++
			} else {
				// 2n+1 backslashes and a quote: n backslashes and a literal quote.
				str = str[:len(str)-bcount/2-1] + `"`
			}
			cur.Reset()
			cur.WriteString(str)
			i++
			bcount = 0
			// Runs of quotes: every third one is literal.
			for i < len(s) && s[i] == '"' {
				qcount++
				if qcount == 3 {
					cur.WriteByte('"')
					qcount = 0
				}
				i++
			}
			if qcount == 2 {
				qcount = 0
			}
			continue
		default:
			cur.WriteByte(c)
			bcount = 0
		}
		i++
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args
}

// checkBatchArgs refuses arguments that cmd.exe would reinterpret when the
// program is a batch file: CreateProcess runs .bat and .cmd through cmd.exe,
// which expands %VAR% and obeys & | < > ^ even inside quotes, so the
// command that ran would not be the one the policy approved (the
// "BatBadBut" class of bugs).
func checkBatchArgs(program string, argv []string) error {
	if !isBatch(program) {
		return nil
	}
	for i, a := range argv[1:] {
		if j := strings.IndexAny(a, "\"%!^&|<>()\r\n"); j >= 0 {
			return fmt.Errorf("windows launcher: argument %d of batch file %q contains %q, which cmd.exe would reinterpret", i+1, program, a[j])
		}
	}
	return nil
}

func isBatch(program string) bool {
	ext := strings.ToLower(winExt(program))
	return ext == ".bat" || ext == ".cmd"
}

// checkStrings refuses what cannot reach Windows unchanged: NUL bytes end a
// UTF-16 string early and invalid UTF-8 would be replaced by U+FFFD, so
// the child would get something other than what the policy approved.
func checkStrings(what string, ss []string) error {
	for i, s := range ss {
		if err := checkString(s); err != nil {
			return fmt.Errorf("windows launcher: %s %d %q: %w", what, i, s, err)
		}
	}
	return nil
}

func checkString(s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return errors.New("contains a NUL byte")
	}
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8")
	}
	return nil
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}
