package policy

import (
	"strings"
	"testing"
)

// TestHostileShapes feeds shapes that make a recursive parser or walker
// run out of stack: each must come back with a decision, never crash (a Go
// stack overflow is fatal, not a panic), and the deep ones are refused.
func TestHostileShapes(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	for _, tc := range []struct {
		script string
		rule   string // "" means any
	}{
		{"echo $((" + strings.Repeat("(", 200000) + "1" + strings.Repeat(")", 200000) + "))", "parse"},
		{"echo $((" + strings.Repeat("(", 900) + "1" + strings.Repeat(")", 900) + "))", "default"},
		{strings.Repeat("{ ", 100000) + "ls" + strings.Repeat("; }", 100000), "parse"},
		{strings.Repeat("echo \"$(", 20000) + "ls" + strings.Repeat(")\"", 20000), "parse"},
		{strings.Repeat("a|", 100000) + "b", "default"},
		{strings.Repeat("a && ", 100000) + "b", "default"},
		{strings.Repeat("a || ", 50000) + "rm -rf /", "default:rm-root"},
		{strings.Repeat("a; ", 100000) + "b", "default"},
		{strings.Repeat("! ", 100000) + "b", ""},
		{strings.Repeat("if a; then ", 300) + "b" + strings.Repeat("; fi", 300), "default"},
		{strings.Repeat("$", 100000) + "b", ""},
		{strings.Repeat("x=", 100000) + "b", ""},
		{strings.Repeat("\"$x", 50000), ""},
		{strings.Repeat("`", 50001), ""},
		{strings.Repeat("<<E ", 30000) + "\n", ""},
		{"echo " + strings.Repeat("-", 1000000), "default"},
	} {
		d := p.Check(Request{Script: tc.script})
		if tc.rule != "" && d.Rule != tc.rule {
			t.Errorf("Check(%.40q...) = %v; want rule %s", tc.script, d, tc.rule)
		}
	}
}
