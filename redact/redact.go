// Package redact scrubs credentials out of command lines and log text
// before they are written anywhere.
//
// It keeps what makes a line readable: the name a secret was assigned to,
// a token's type prefix (GITHUB_TOKEN=ghp_[REDACTED]), the scheme of an
// Authorization header, the user of a URL. Detection is layered: provider
// token formats, PEM private keys, URL credentials, secret-named
// assignments, flags, JSON fields and headers, tool-specific password flags,
// and finally long random-looking tokens. Every detector runs in time linear
// in its input (Go's RE2 regexps and hand-written scanners) and the regexps
// are compiled on first use, not at program start.
//
// Redaction is idempotent: String(String(s)) == String(s).
//
// # Limitations
//
// It is a heuristic. It cannot recognise a short password given as a plain
// positional argument, a secret split across lines other than a PEM block,
// or an encoded secret (URL-escaped beyond query values, hex-encoded).
// Random-looking identifiers that are not secrets (some file and object
// ids) may be masked.
package redact

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Mask replaces every secret.
const Mask = "[REDACTED]"

// MaxLine is the longest line [Filter] accepts.
const MaxLine = 8 << 20

// String returns s with every secret it recognises replaced by [Mask].
// It never fails; bytes that are not valid UTF-8 are kept as they are.
func String(s string) string {
	if len(s) < 4 {
		return s
	}
	c := scrubber{s: s}
	c.scrub()
	return c.apply()
}

func (c *scrubber) scrub() {
	c.providers()
	c.pem()
	c.urls()
	c.pairs()
	c.colons()
	c.words()
	c.opaque()
}

// Argv returns a redacted copy of args, one element per element. Besides
// scrubbing each element like [String], it masks a value that follows its
// flag in the next element ("--token" "VALUE", "-p" "VALUE" for sshpass).
func Argv(args []string) []string {
	if args == nil {
		return nil
	}
	out := make([]string, len(args))
	copy(out, args)
	stdin := stdinProbe{text: " " + strings.Join(args, " ")}
	marks := flagPass(args, &stdin, nil)
	if len(marks) > 0 {
		byWord := make(map[int]*scrubber)
		for _, m := range marks {
			sc := byWord[m.w]
			if sc == nil {
				sc = &scrubber{s: args[m.w]}
				byWord[m.w] = sc
			}
			sc.maskValue(m.a, m.b)
		}
		for i, sc := range byWord {
			out[i] = sc.apply()
		}
	}
	for i := range out {
		out[i] = String(out[i])
	}
	return out
}

// SecretValue reports whether value holds a credential in a recognisable
// format: a provider token (GitHub, GitLab, Slack, Stripe, AWS, Google,
// OpenAI, Anthropic, npm, PyPI, Docker, Vault, ...), a JWT, a PEM private
// key or a URL with a password. It does not use the random-token
// heuristic, so ordinary configuration values do not match.
func SecretValue(value string) bool {
	if len(value) < 8 {
		return false
	}
	c := scrubber{s: value}
	if c.providers() {
		return true
	}
	c.pem()
	c.urls()
	return c.masked != nil
}

// Filter copies r to w line by line, redacting each line with [String]:
// one output line per input line, in the same order, with the same line
// endings. The body of a PEM private key block spanning several lines is
// masked line by line. A line longer than [MaxLine] or holding invalid
// UTF-8 or a NUL byte stops the filter with an error naming the line: the
// lines before it have been written, it and the rest are not.
func Filter(w io.Writer, r io.Reader) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	err := filter(bw, r)
	// Lines before a bad one are passed on; the bad one and the rest are not.
	if ferr := bw.Flush(); err == nil && ferr != nil {
		err = fmt.Errorf("redact: write: %w", ferr)
	}
	return err
}

func filter(bw *bufio.Writer, r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	inKey := false
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 {
			body, eol := splitEOL(line)
			if len(body) > MaxLine {
				return fmt.Errorf("redact: line %d: longer than %d bytes", n, MaxLine)
			}
			if !utf8.ValidString(body) {
				return fmt.Errorf("redact: line %d: invalid UTF-8", n)
			}
			if strings.IndexByte(body, 0) >= 0 {
				return fmt.Errorf("redact: line %d: NUL byte", n)
			}
			var out string
			out, inKey = filterLine(body, inKey)
			if _, werr := bw.WriteString(out); werr != nil {
				return fmt.Errorf("redact: write: %w", werr)
			}
			if _, werr := bw.WriteString(eol); werr != nil {
				return fmt.Errorf("redact: write: %w", werr)
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("redact: line %d: %w", n, err)
		}
	}
}

// readLine reads one line including its '\n', refusing to buffer more
// than MaxLine bytes of it.
func readLine(br *bufio.Reader) (string, error) {
	var sb strings.Builder
	for {
		frag, err := br.ReadSlice('\n')
		sb.Write(frag)
		if sb.Len() > MaxLine+2 {
			return sb.String(), nil // the caller reports the length
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return sb.String(), err
	}
}

func splitEOL(line string) (body, eol string) {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return line[:len(line)-2], "\r\n"
	case strings.HasSuffix(line, "\n"):
		return line[:len(line)-1], "\n"
	}
	return line, ""
}

// filterLine redacts one line of a stream, carrying whether the stream
// is inside a PEM private key block.
func filterLine(line string, inKey bool) (string, bool) {
	if inKey {
		end := strings.Index(line, "-----END ")
		if end < 0 {
			if strings.TrimSpace(line) == "" {
				return line, true
			}
			return Mask, true
		}
		return Mask + String(line[end:]), false
	}
	out := String(line)
	// Index is much faster than LastIndex, and almost every line holds
	// no PEM header at all.
	if !strings.Contains(line, "-----BEGIN ") {
		return out, false
	}
	rest := line[strings.LastIndex(line, "-----BEGIN "):]
	if h := strings.Index(rest[11:], "-----"); h >= 0 && strings.Contains(rest[11:11+h], "PRIVATE KEY") &&
		!strings.Contains(rest[11+h:], "-----END ") {
		return out, true
	}
	return out, false
}
