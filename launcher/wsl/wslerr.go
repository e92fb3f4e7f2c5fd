package wsl

import (
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/plan"
)

// decodeWSLText turns wsl.exe output into readable text. wsl.exe writes its
// own messages in UTF-16LE unless WSL_UTF8=1 is honoured, and writes some of
// them to stdout, so both encodings are expected on both streams.
func decodeWSLText(b []byte) string {
	var s string
	if looksUTF16LE(b) {
		b = b[:len(b)&^1]
		u := make([]uint16, 0, len(b)/2)
		for i := 0; i < len(b); i += 2 {
			u = append(u, uint16(b[i])|uint16(b[i+1])<<8)
		}
		s = string(utf16.Decode(u))
		s = strings.TrimPrefix(s, "\uFEFF")
	} else {
		s = strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return s
}

// looksUTF16LE reports whether b starts with a UTF-16LE byte order mark or
// with mostly ASCII text in UTF-16LE, as wsl.exe's messages do.
func looksUTF16LE(b []byte) bool {
	if len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE {
		return true
	}
	n := min(len(b), 64) &^ 1
	if n < 4 {
		return false
	}
	zeros := 0
	for i := 1; i < n; i += 2 {
		if b[i] == 0 && b[i-1] != 0 {
			zeros++
		}
	}
	return zeros*4 >= n/2*3
}

// oneLine squeezes s into a short single line for an error message,
// dropping control characters a hostile program could use on a terminal.
func oneLine(s string, max int) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		if unicode.IsSpace(r) || !unicode.IsPrint(r) {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
		if b.Len() >= max {
			return b.String() + "…"
		}
	}
	return b.String()
}

// isWSLFailure reports whether wsl.exe itself failed rather than the Linux
// command. wsl.exe exits with -1 (0xFFFFFFFF), which no Linux status can
// be. Where only eight bits of status survive (a Linux host calling
// wsl.exe through interop, or the test fake) -1 arrives as 255, so off
// Windows 255 counts only with wsl.exe's "Error code: Wsl/..." line beside
// it; on Windows a command's own 255 is always its own.
func isWSLFailure(code int, text string) bool {
	return uint32(code) == 0xFFFFFFFF ||
		runtime.GOOS != "windows" && code == 255 && strings.Contains(text, "Wsl/")
}

// wslFailure builds the error for a failure of wsl.exe itself, with a hint
// when the distro is missing.
func wslFailure(distro string, code int, text string) error {
	msg := oneLine(wslMessage(text), 300)
	if msg == "" {
		msg = "no message"
	}
	if isDistroNotFound(text) {
		return fmt.Errorf("wsl: distro %q does not exist; create it with \"aar-exec wsl setup\" (wsl.exe: %s): %w",
			distro, msg, plan.ErrSetup)
	}
	return fmt.Errorf("wsl: wsl.exe failed with exit status 0x%X: %s: %w", uint32(code), msg, plan.ErrSetup)
}

func isDistroNotFound(text string) bool {
	lower := strings.ToLower(text)
	return strings.Contains(lower, "wsl_e_distro_not_found") ||
		strings.Contains(lower, "no distribution with the supplied name")
}

// wslMessage picks wsl.exe's own message out of the output: the last
// "Error code: Wsl/..." line and the line before it, or all of text
// when there is none.
func wslMessage(text string) string {
	lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == '\r' })
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.Contains(lines[i], "Wsl/") {
			return strings.Join(lines[max(0, i-1):i+1], "\n")
		}
	}
	return text
}

// lastChars returns the end of s, at most n bytes and cut at a rune
// boundary, where a failing command's most telling output is.
func lastChars(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	for len(s) > 0 && !utf8.RuneStart(s[0]) {
		s = s[1:]
	}
	return "…" + s
}
