package redact

import (
	"slices"
	"strings"
	"testing"
)

// Rules compile on first use; this makes sure every one of them compiles,
// so a bad pattern fails here and never in front of a user's command.
func TestEveryRuleCompiles(t *testing.T) {
	rs := compiledRules()
	for i, r := range rules {
		if rs.regexp(i) == nil || rs.plain(i) == nil {
			t.Errorf("rule %s has no regexp", r.name)
		}
	}
}

// Anchored rules are tried at their triggers instead of searched for; this
// checks that both ways find the same secrets, on the corpus as providers
// looks at it, and on lines of many tries, most failing, that make the
// tries give way to a search.
func TestAnchoredRulesFindWhatSearchFinds(t *testing.T) {
	rs := compiledRules()
	check := func(i int, s string, from int) { checkTriedAsSearched(t, rs, i, s, from) }
	for _, name := range []string{"secrets.txt", "benign.txt"} {
		for _, ml := range readCorpus(t, name) {
			var first [maxRules]int32
			set := rs.triggered(ml.text, &first)
			for i, r := range rules {
				if set[i/64]&(1<<(i%64)) != 0 && r.anchored() {
					check(i, ml.text, max(int(first[i])-1, 0))
				}
			}
		}
	}
	// (?i) folds ſ to s: a search finds the second password, and so must
	// the rule as tried.
	for _, s := range []string{"password 'abc' paſſword 'hunter2secret'", "bearer abcdefghijk BEARER abcdefghijk"} {
		var first [maxRules]int32
		set := rs.triggered(s, &first)
		for i := range rules {
			if set[i/64]&(1<<(i%64)) != 0 {
				check(i, s, max(int(first[i])-1, 0))
			}
		}
	}
	for i, r := range rules {
		if !r.anchored() {
			continue
		}
		for _, lit := range r.triggers {
			if !isWordByte(lit[0]) {
				t.Errorf("rule %s: trigger %q does not start with a word character", r.name, lit)
			}
			for _, sep := range []string{" ", "-", ".x", "'"} {
				miss, hit := lit+"Ab3"+sep, lit+"Ab3Cd4Ef5Gh6Ij7Kl8Mn9Op0Qr1"+sep
				// "x"+hit has no \b before its trigger
				check(i, "x"+hit+hit+strings.Repeat(miss, maxMisses)+hit+strings.Repeat(miss, 5)+hit+lit, 0)
			}
		}
	}
}

// checkTriedAsSearched fails t when rule i, tried at its triggers in s
// from from, finds other secrets than a search of its regexp does.
func checkTriedAsSearched(t *testing.T, rs *ruleSet, i int, s string, from int) {
	t.Helper()
	var got, want [][2]int
	for a, b := range rs.secrets(i, s, from) {
		got = append(got, [2]int{a, b})
	}
	for _, m := range rs.plain(i).FindAllStringSubmatchIndex(s[from:], -1) {
		want = append(want, [2]int{from + m[2], from + m[3]})
	}
	if !slices.Equal(got, want) {
		t.Errorf("rule %s on %q from %d:\n tried %v\n search %v", rules[i].name, s, from, got, want)
	}
}
