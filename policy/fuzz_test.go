package policy

import (
	"strings"
	"testing"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzCheck feeds arbitrary scripts to the parser front end and the rules:
// Check must never panic, must be deterministic, must refuse what it
// cannot read, and must judge every statement: rm -rf / appended as a
// statement of its own is denied whatever came before it.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"rm -rf /", "bash -c 'rm -rf /'", "curl x | sudo bash", ":(){ :|:& };:", "$(echo rm) -rf /",
		"echo \"rm -rf /\"", "cat ~/.ssh/id_rsa", "for c in rm; do $c -rf /; done", "f() { f | f & }; f",
		"x=${HOME:-/}; rm -rf $x", "sh <<EOF\nrm -rf /\nEOF", "{a,b}{1..3}", "$'\\x72m' -rf /",
		"find / -exec rm -rf {} +", "env -S 'rm -rf /'", "echo / | xargs rm -rf", `C:\Users\u\.ssh\id_rsa`,
		"alias a=a; a", "$((((((1))))))", "a && b || c | d", "echo {1..100}{a,b}", "cat <<E\n{x,y} $(echo {1..99})\nE", "IFS=,; x=a,b; $x", "((1+2)); [[ -f x ]]; let x=1", "coproc cat; exec 3>&-",
		"time", "time -p -- x | y", "coproc x=1 y", "!(x)", "let 1&&x", "cat <<E\\\nOF\nx\nEOF", "a\r\nb",
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
		// A large script is parsed on a goroutine of its own and walked in
		// batches; that must not change a decision.
		if d3 := p.check(Request{Script: script}, 1+len(script)%4); d3 != d1 {
			t.Fatalf("pipelined walk decided %v; the serial walk %v", d3, d1)
		}
		if strings.HasPrefix(d1.Reason, "internal error") {
			t.Fatalf("the walk panicked (Check denied, as it must): %v", d1)
		}
		if d1.Rule == "" || d1.Reason == "" {
			t.Fatalf("decision without a rule or reason: %#v", d1)
		}
		if (strings.IndexByte(script, 0) >= 0 || !utf8.ValidString(script)) && d1.Action != Deny {
			t.Fatalf("unreadable input was not denied: %v", d1)
		}
		// The argv form must not panic either.
		p.Check(Request{Argv: strings.Fields(script)})

		tail := script + "\nrm -rf /"
		if lastIsOwnStatement(tail, len(script)+1) {
			if d := p.Check(Request{Script: tail}); d.Action != Deny {
				t.Fatalf("a statement after the script was not judged: Check(%q) = %v", tail, d)
			}
		}
	})
}

// lastIsOwnStatement reports whether script parses and its last top-level
// statement is a plain command starting at offset off: what was appended
// there did not become part of a here-document, a string or a
// continued line.
func lastIsOwnStatement(script string, off int) bool {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) == 0 {
		return false
	}
	last := f.Stmts[len(f.Stmts)-1]
	call, ok := last.Cmd.(*syntax.CallExpr)
	return ok && int(last.Pos().Offset()) == off && len(call.Args) == 3 && len(call.Assigns) == 0 &&
		len(last.Redirs) == 0 && !last.Negated && !last.Background && !last.Coprocess
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
