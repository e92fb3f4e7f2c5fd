package policy

import (
	"strings"
	"testing"
)

// A variable that code which may not run set may still hold its value
// from before: each use is judged with both (see alts.go). All but two
// of the denies here were allows when the walk kept one value per
// variable.
func TestValuesFromPathsNotTaken(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	rm := "default:rm-root"
	runCases(t, p, []checkCase{
		// Branches, && and ||, case, loops.
		{`x=/; false && x=/tmp/a; rm -rf "$x"`, Deny, rm},
		{`x=/; true || x=/tmp/a; rm -rf "$x"`, Deny, rm},
		{`x=/; if [ -z "$HOME" ]; then x=/tmp/a; fi; rm -rf "$x"`, Deny, rm},
		{`x=/; if a; then x=/tmp/a; else x=/tmp/b; fi; rm -rf "$x"`, Deny, rm},
		{`x=/; case "$1" in a) x=/tmp/a;; esac; rm -rf "$x"`, Deny, rm},
		{`x=/; for i in $list; do x=/tmp/a; done; rm -rf "$x"`, Deny, rm},
		{`x=/; while read -r l; do x=/tmp/a; done; rm -rf "$x"`, Deny, rm},
		{`x=/; f() { x=/tmp/a; }; false && f; rm -rf "$x"`, Deny, rm},
		{`a=(/); false && a=(/tmp/a); rm -rf "${a[@]}"`, Deny, rm},
		// The value passes on: assignments, substitutions, loops,
		// functions, pipelines to a shell, files run later, cd.
		{`x=/; false && x=/tmp/a; y="$x"; rm -rf "$y"`, Deny, rm},
		{`x=/; false && x=/tmp/a; rm -rf "$(echo "$x")"`, Deny, rm},
		{`x=/; false && x=/tmp/a; for d in "$x"; do rm -rf "$d"; done`, Deny, rm},
		{`x=/; false && x=/tmp/a; f() { rm -rf "$x"; }; f`, Deny, rm},
		{`x="rm -rf /"; false && x="echo hi"; echo "$x" | sh`, Deny, rm},
		{`x="rm -rf /"; false && x="echo hi"; { echo a; echo "$x"; } | sh`, Deny, rm},
		{`x="rm -rf /"; false && x="echo hi"; echo "$x" > r.sh; sh r.sh`, Deny, rm},
		{`x=/; false && x=/tmp; cd "$x"; rm -rf *`, Deny, rm},
		{`x=/; false && x=/tmp; cd "$x" && rm -rf *`, Deny, rm},
		// A variable the walk never set holds the environment's value,
		// which may be empty.
		{`[ -n "$V" ] && D=/tmp/x; rm -rf "$D/"`, Deny, rm},
		// shift and set that may not run.
		{`set -- echo rm -rf /; [ -n "$HOME" ] && shift; "$@"`, Deny, rm},
		{`set -- /tmp/a /; [ -n "$HOME" ] && shift; rm -rf "$1"`, Deny, rm},
		{`set -- /tmp/a; false && set -- /; rm -rf "$1"`, Deny, rm},
		{`set -- /; false && set -- /tmp/a; rm -rf "$@"`, Deny, rm},
		// Text known in part may or may not set a variable.
		{`x=tmp; eval "x=/ $y"; rm -rf "$x"`, Deny, rm},
		{`x=/; eval "$y x=/tmp"; rm -rf "$x"`, Deny, rm},
		{`set -- /tmp/a; eval "set -- / $y"; rm -rf "$1"`, Deny, rm},
		// Harmless either way.
		{`x=/tmp/b; false && x=/tmp/a; rm -rf "$x"`, Allow, "default"},
		{`x=/tmp/a; false && x=/tmp/b; cd "$x" && rm -rf *`, Allow, "default"},
		{`for f in a b; do echo $f; done; rm -rf "$f"`, Allow, "default"},
		{`x=/tmp/a; eval "x=/tmp/b $y"; rm -rf "$x"`, Allow, "default"},
		{`out=/dev/null; [ -n "$V" ] && out=log.txt; make > "$out"`, Allow, "default"},
		// An empty value on a path that never gets here: the text it
		// makes for a shell does not parse, and that alone is no reason
		// to refuse (go's mkall.sh).
		{`x="go run m.go"; false && x=; if [ -n "$x" ]; then echo "$x | gofmt > z"; fi | sh`, Allow, "default"},
		// The value the walk took still fails as before.
		{"x='echo hi'; false && x='rm -rf /\n('; echo \"$x\" | sh", Deny, "parse"},
	})
}

// Past maxAlts other values a variable is unknown; each value is judged
// again only within a budget of bytes.
func TestValuesFromPathsNotTakenAreBounded(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	var b strings.Builder
	b.WriteString("x=/tmp/0\n")
	for i := 1; i <= maxAlts+2; i++ {
		b.WriteString("false && x=/tmp/" + strings.Repeat("a", i) + "\n")
	}
	b.WriteString(`rm -rf "$x"`)
	if d := p.Check(Request{Script: b.String()}); d.Action != Allow {
		t.Errorf("%d other values: %v; want allow", maxAlts+2, d)
	}
	// Each statement that reads such a variable is judged again for each
	// of its values, within a budget.
	head := "x=/tmp/a\n"
	for i := range maxAlts {
		head += "false && x=/tmp/" + string(rune('b'+i)) + "\n"
	}
	line := `echo "$x"` + "\n"
	script := head + strings.Repeat(line, (MaxScriptSize-len(head))/len(line))
	d := p.Check(Request{Script: script})
	if d.Action != Deny || !strings.Contains(d.Reason, "to judge again") {
		t.Errorf("%d MiB reading a variable with %d other values: %v; want the budget's deny", len(script)>>20, maxAlts, d)
	}
}
