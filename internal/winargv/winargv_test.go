package winargv

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestQuoteArg(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"plain", "plain"},
		{`C:\dir\`, `C:\dir\`}, // unquoted backslashes are literal
		{`%PATH%^&|<>`, `%PATH%^&|<>`},
		{"a b", `"a b"`},
		{`a"b`, `"a\"b"`},
		{`a\"b`, `"a\\\"b"`},
		{`dir\ `, `"dir\ "`},
		{`C:\dir with space\`, `"C:\dir with space\\"`},
		{"new\nline", "\"new\nline\""},
		{`\\"`, `"\\\\\""`},
	}
	for _, tt := range tests {
		if got := Quote(tt.in); got != tt.want {
			t.Errorf("Quote(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSplitCommandLine(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"p", []string{"p"}},
		{"p  ", []string{"p"}},
		{" x", []string{"", "x"}},
		// The program: no escapes, ends at the closing quote or whitespace.
		{`"C:\Program Files\WSL\wsl.exe" -d x`, []string{`C:\Program Files\WSL\wsl.exe`, "-d", "x"}},
		{`C:\a\b\" c`, []string{`C:\a\b\"`, "c"}},
		{`"a"b c`, []string{"a", "b", "c"}},
		{`"unterminated`, []string{"unterminated"}},
		// Arguments: the examples of Microsoft's "Parsing C command-line
		// arguments", which CommandLineToArgvW shares.
		{`p "abc" d e`, []string{"p", "abc", "d", "e"}},
		{`p a\\\b d"e f"g h`, []string{"p", `a\\\b`, "de fg", "h"}},
		{`p a\\\"b c d`, []string{"p", `a\"b`, "c", "d"}},
		{`p a\\\\"b c" d e`, []string{"p", `a\\b c`, "d", "e"}},
		{"p \"\" \t \"\"", []string{"p", "", ""}},
		{`p "a\"" b`, []string{"p", `a"`, "b"}},
		{`p "unterminated arg`, []string{"p", "unterminated arg"}},
		{"p a\nb", []string{"p", "a\nb"}}, // only space and tab separate
		{`p """"`, []string{"p", `"`}},    // three quotes make one literal quote
	}
	for _, tt := range tests {
		if got := Split(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Split(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// hostileArgs returns the arguments every quoting test must carry intact.
func hostileArgs() []string {
	return []string{
		"", " ", "\t", `"`, `""`, `"""`, `\`, `\\`, `\\\`, `\"`, `\\"`, `a\`, `a\\`, `"a"`, `a b`, ` a `,
		"new\nline", "cr\r", "\v\f", `%PATH%`, `%%`, `^`, `^^"`, `&`, `&&`, `|`, `<`, `>`, `(`, `)`, `!`,
		`$HOME`, "`id`", `$(id)`, `'`, `*`, `?`, `~`, `#`, `;`, `-d`, `--exec`, `--`,
		`C:\Program Files\x\`, `\\server\share\`, "ünïcødé", "☃ 𝄞 \u200b", "\u00a0", `x"y z"\"`,
	}
}

func TestJoinCommandLineRoundTrip(t *testing.T) {
	progs := []string{`C:\Windows\System32\wsl.exe`, `C:\Program Files\WSL\wsl.exe`, `wsl.exe`, `C:\odd\`}
	for _, prog := range progs {
		for _, a := range hostileArgs() {
			for _, args := range [][]string{{prog, a}, {prog, a, a}, {prog, "x", a, "y"}} {
				line := Join(args)
				if got := Split(line); !slices.Equal(got, args) {
					t.Errorf("Join(%q) = %s, which splits into %q", args, line, got)
				}
			}
			if got := Split("p " + Quote(a)); !slices.Equal(got, []string{"p", a}) {
				t.Errorf("Quote(%q) = %s, which splits into %q", a, Quote(a), got)
			}
		}
	}
	all := append([]string{`C:\wsl.exe`}, hostileArgs()...)
	if got := Split(Join(all)); !slices.Equal(got, all) {
		t.Errorf("all hostile args together split into %q", got)
	}
}

// FuzzQuoteRoundTrip splits the input at NUL bytes into arguments (a NUL
// cannot cross a Windows command line) and checks that the command line
// built from them splits back into exactly them.
func FuzzQuoteRoundTrip(f *testing.F) {
	f.Add(strings.Join(hostileArgs(), "\x00"))
	for _, a := range hostileArgs() {
		f.Add(a)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if !utf8.ValidString(in) {
			return
		}
		args := append([]string{`C:\Program Files\WSL\wsl.exe`}, strings.Split(in, "\x00")...)
		if err := Check(args); err != nil {
			return
		}
		line := Join(args)
		if got := Split(line); !slices.Equal(got, args) {
			t.Fatalf("%q -> %s -> %q", args, line, got)
		}
		for _, a := range args[1:] {
			if got := Split("p " + Quote(a)); len(got) != 2 || got[1] != a {
				t.Fatalf("Quote(%q) = %s -> %q", a, Quote(a), got)
			}
		}
	})
}

func TestCheckArgs(t *testing.T) {
	bad := [][]string{
		nil,
		{"p", "a\x00b"},
		{"p", "\xff"},
		{"p", "\xed\xa0\x80"}, // a UTF-16 surrogate encoded in UTF-8
		{`p"q`, "x"},
		{"p", strings.Repeat("a", MaxCommandLine)},
	}
	for _, args := range bad {
		if err := Check(args); err == nil {
			t.Errorf("Check(%.40q) = nil, want an error", args)
		}
	}
	if err := Check(append([]string{"p"}, hostileArgs()...)); err != nil {
		t.Errorf("Check(hostile) = %v", err)
	}
}

func BenchmarkJoinCommandLine(b *testing.B) {
	args := append([]string{`C:\Windows\System32\wsl.exe`, "-d", "aar-sandbox", "--exec", "sh", "-c",
		`cd -- "$1" || exit 125; shift; exec "$@"`, "aar-exec", "/mnt/c/ws"}, hostileArgs()[1:]...)
	for b.Loop() {
		_ = Join(args)
	}
}
