package windows

import (
	"github.com/aar-agent/aar-exec/internal/winargv"
	"slices"
	"strings"
	"testing"
)

func TestCommandLineRoundTrips(t *testing.T) {
	tests := []struct {
		argv []string
		want string // expected line, "" to skip the exact check
	}{
		{[]string{"prog"}, "prog"},
		{[]string{`C:\Program Files\x.exe`, "a"}, `"C:\Program Files\x.exe" a`},
		{[]string{"p", ""}, `p ""`},
		{[]string{"p", "a b"}, `p "a b"`},
		{[]string{"p", `a"b`}, `p "a\"b"`},
		{[]string{"p", `a\b`}, `p a\b`},
		{[]string{"p", `a\`}, `p a\`},
		{[]string{"p", `a b\`}, `p "a b\\"`},
		{[]string{"p", `a\"b`}, `p "a\\\"b"`},
		{[]string{"p", `\\server\share\`}, `p \\server\share\`},
		{[]string{"p", "tab\there", "nl\nhere", "vt\vhere"}, ""},
		{[]string{"p", `"`, `""`, `"""`, `\"`, `\\"`}, ""},
		{[]string{"p", "$HOME", "%PATH%", "a&b|c", "^"}, ""},
		{[]string{"p", "é ünï", "日本"}, ""},
		{[]string{`C:\dir\`, "x"}, `C:\dir\ x`},
		{[]string{`C:\a dir\`, "x"}, `"C:\a dir\" x`},
	}
	for _, tt := range tests {
		line, err := commandLine(tt.argv)
		if err != nil {
			t.Errorf("commandLine(%q): %v", tt.argv, err)
			continue
		}
		if tt.want != "" && line != tt.want {
			t.Errorf("commandLine(%q) = %s, want %s", tt.argv, line, tt.want)
		}
		if got := winargv.Split(line); !slices.Equal(got, tt.argv) {
			t.Errorf("winargv.Split(%s) = %q, want %q", line, got, tt.argv)
		}
	}
}

func TestCommandLineRefuses(t *testing.T) {
	tests := []struct {
		name string
		argv []string
		want string
	}{
		{"empty", nil, "empty command"},
		{"empty program", []string{""}, "empty command"},
		{"quote in program", []string{`a"b`}, "double quote"},
		{"NUL", []string{"p", "a\x00b"}, "NUL byte"},
		{"bad UTF-8", []string{"p", "\xff"}, "not valid UTF-8"},
		{"too long", []string{"p", strings.Repeat("x", maxCommandLine)}, "over the Windows limit"},
	}
	for _, tt := range tests {
		_, err := commandLine(tt.argv)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: commandLine(%.40q) error = %v, want one containing %q", tt.name, tt.argv, err, tt.want)
		}
	}
}

// TestParseCommandLine pins the parser to documented CommandLineToArgvW
// results, so the round-trip test cannot pass with two matching bugs.
func TestParseCommandLine(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		{`"abc" d e`, []string{"abc", "d", "e"}},
		{`a\\\b d"e f"g h`, []string{`a\\\b`, "de fg", "h"}},
		{`a\\\"b c d`, []string{`a\\\"b`, "c", "d"}}, // argument 0 keeps backslashes
		{`p a\\\"b c d`, []string{"p", `a\"b`, "c", "d"}},
		{`p a\\\\"b c" d e`, []string{"p", `a\\b c`, "d", "e"}},
		// CommandLineToArgvW ends the quote after `""` (the C runtime since
		// 2008 would not); commandLine never writes `""` inside quotes.
		{`p a"b"" c d`, []string{"p", `ab"`, "c", "d"}},
		{`p   `, []string{"p"}},
		{`p "" `, []string{"p", ""}},
		{`"C:\a b\" x`, []string{`C:\a b\`, "x"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := winargv.Split(tt.line); !slices.Equal(got, tt.want) {
			t.Errorf("winargv.Split(%s) = %q, want %q", tt.line, got, tt.want)
		}
	}
}

func FuzzCommandLine(f *testing.F) {
	for _, s := range []string{"", "a b", `a"b`, `a\`, `\\"`, "\t", `"""`} {
		f.Add("prog", s, "x")
	}
	f.Fuzz(func(t *testing.T, a0, a1, a2 string) {
		argv := []string{a0, a1, a2}
		line, err := commandLine(argv)
		if err != nil {
			return
		}
		if got := winargv.Split(line); !slices.Equal(got, argv) {
			t.Fatalf("round trip of %q via %s gave %q", argv, line, got)
		}
	})
}

func TestCheckBatchArgs(t *testing.T) {
	tests := []struct {
		program string
		args    []string
		ok      bool
	}{
		{`C:\x\build.exe`, []string{"a&calc"}, true},
		{`C:\x\build.bat`, []string{"plain", "with space"}, true},
		{`C:\x\build.BAT`, []string{"a&calc"}, false},
		{`C:\x\build.cmd`, []string{"%PATH%"}, false},
		{`C:\x\build.cmd`, []string{`"quoted"`}, false},
		{`C:\x\build.cmd`, []string{"line\nbreak"}, false},
	}
	for _, tt := range tests {
		err := checkBatchArgs(tt.program, append([]string{"p"}, tt.args...))
		if (err == nil) != tt.ok {
			t.Errorf("checkBatchArgs(%q, %q) = %v, want ok=%v", tt.program, tt.args, err, tt.ok)
		}
	}
}

func BenchmarkCommandLine(b *testing.B) {
	argv := []string{`C:\Program Files\Go\bin\go.exe`, "test", "-run", `Test"Quoted"`, `C:\some dir\`, "./..."}
	for b.Loop() {
		if _, err := commandLine(argv); err != nil {
			b.Fatal(err)
		}
	}
}
