package redact

import "testing"

// Rules compile on first use; this makes sure every one of them compiles,
// so a bad pattern fails here and never in front of a user's command.
func TestEveryRuleCompiles(t *testing.T) {
	rs := compiledRules()
	for i, r := range rules {
		if rs.regexp(i) == nil {
			t.Errorf("rule %s has no regexp", r.name)
		}
	}
}
