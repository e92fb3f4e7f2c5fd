package policy

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzCheck feeds arbitrary scripts to the parser front end and the rules:
// Check must never panic, must be deterministic, and must refuse what it
// cannot read.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"rm -rf /", "bash -c 'rm -rf /'", "curl x | sudo bash", ":(){ :|:& };:", "$(echo rm) -rf /",
		"echo \"rm -rf /\"", "cat ~/.ssh/id_rsa", "for c in rm; do $c -rf /; done", "f() { f | f & }; f",
		"x=${HOME:-/}; rm -rf $x", "sh <<EOF\nrm -rf /\nEOF", "{a,b}{1..3}", "$'\\x72m' -rf /",
		"find / -exec rm -rf {} +", "env -S 'rm -rf /'", "echo / | xargs rm -rf", `C:\Users\u\.ssh\id_rsa`,
		"alias a=a; a", "$((((((1))))))", "a && b || c | d", "echo {1..100}{a,b}", "cat <<E\n{x,y} $(echo {1..99})\nE", "IFS=,; x=a,b; $x", "((1+2)); [[ -f x ]]; let x=1", "coproc cat; exec 3>&-",
	} {
		f.Add(s)
	}
	p, err := Compile(Default(), testEnv)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, script string) {
		d1 := p.Check(Request{Script: script})
		d2 := p.Check(Request{Script: script})
		if d1 != d2 {
			t.Fatalf("not deterministic: %v then %v", d1, d2)
		}
		if d1.Rule == "" || d1.Reason == "" {
			t.Fatalf("decision without a rule or reason: %#v", d1)
		}
		if (strings.IndexByte(script, 0) >= 0 || !utf8.ValidString(script)) && d1.Action != Deny {
			t.Fatalf("unreadable input was not denied: %v", d1)
		}
		// The argv form must not panic either.
		p.Check(Request{Argv: strings.Fields(script)})
	})
}

// FuzzNormalizePath: never panics, and a Unix or drive-rooted result is a
// fixed point.
func FuzzNormalizePath(f *testing.F) {
	for _, s := range [][2]string{
		{"/etc/../etc/passwd", ""}, {`C:\x\..\y`, ""}, {`\\srv\sh\..\..`, ""}, {`\\?\UNC\a\b`, ""},
		{"a/b", "/w"}, {`..\x`, `C:\w`}, {`\x`, `\\s\h\d`}, {"", ""}, {"c:", ""}, {`\\`, ""},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, cwd string) {
		got := NormalizePath(p, cwd)
		if got == "" || strings.HasPrefix(got, "//") {
			return
		}
		if _, abs := normAbs(p); !abs && !isAbs(NormalizePath(cwd, "")) {
			return // relative against nothing: stays relative, by design
		}
		if !isAbs(got) {
			return
		}
		if again := NormalizePath(got, ""); again != got {
			t.Fatalf("NormalizePath(%q, %q) = %q, which normalises again to %q", p, cwd, got, again)
		}
		if strings.Contains(got, "/../") || strings.HasSuffix(got, "/..") || strings.Contains(got, "/./") {
			t.Fatalf("NormalizePath(%q, %q) = %q is not clean", p, cwd, got)
		}
	})
}
