package redact

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// A prefilter that says no where its rule's regexp matches would let a
// secret through: check them on the corpus, on lines built around the
// rules' own words, and on random mixes of the bytes that matter.
func TestPrefiltersAreNecessary(t *testing.T) {
	var texts []string
	for _, name := range []string{"secrets.txt", "benign.txt"} {
		for _, ml := range readCorpus(t, name) {
			texts = append(texts, ml.text)
		}
	}
	texts = append(texts,
		"Bearer abcdefgh", "bearer\t\f\r\n ~~~~~~~~", "BEARER ſſſſſſſſ", "bEaReR KKKKKKKK==", "bearer ._~+/-09",
		"xbearer abcdefghij", "bearer", "bearer ", "bearer $TOKEN", "-bearer abcdefghij",
		"password 'x'", "PASSWORD\t'x'", "identified by 'hunter2'", "IDENTIFIED\nBY\f'x'", "paſſword 'x'",
		"password ''x'", "password 'x", "password'x'", "by 'é'", "password \v'x'", "password '\n'",
	)
	r := rand.New(rand.NewPCG(1, 2))
	parts := []string{"bearer", "BeArEr", "password", "PASSWORD", "paſſword", "identified", "by", "BY",
		" ", "\t", "\v", "\f", "\r", "\n", "'", "''", "x", "ſ", "K", "é", "$", "~", ".", "_", "=", "abcdefgh", "a1"}
	pick := func() string { return parts[r.IntN(len(parts))] }
	for range 200000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pick())
		}
		texts = append(texts, b.String())
	}
	// keyword, blanks, quote, value, quote, each part sometimes changed
	blanks := []string{" ", "\t", "\v", "\f", "\r", "\n", "  ", "x", ""}
	for range 100000 {
		seq := []string{pick(), parts[r.IntN(7)], blanks[r.IntN(len(blanks))], blanks[r.IntN(len(blanks))],
			"'", pick(), pick(), "'", pick()}
		seq[r.IntN(len(seq))] = pick()
		texts = append(texts, strings.Join(seq, ""))
	}
	rs := compiledRules()
	for i, rl := range rules {
		pre := rs.pre[i]
		if pre == nil {
			continue
		}
		re := rs.plain(i)
		matched := 0
		for _, s := range texts {
			for from := range min(len(s), 3) {
				if re.MatchString(s[from:]) {
					matched++
					if !pre(s[from:]) {
						t.Errorf("rule %s matches %q but its prefilter says no", rl.name, s[from:])
					}
				}
			}
		}
		if matched < 100 {
			t.Errorf("rule %s: only %d texts match; the test proves little", rl.name, matched)
		}
	}
}

// The trigger index files a trigger under its first two bytes as written
// and looks a word up under its first two bytes in lower case.
func TestTriggersAreLowerCase(t *testing.T) {
	for _, r := range rules {
		for _, lit := range r.triggers {
			if len(lit) < 2 || strings.ToLower(lit) != lit {
				t.Errorf("rule %s: trigger %q is not lower case of two bytes or more", r.name, lit)
			}
		}
	}
}

// bearer is tried at its triggers although its regexp has (?i): check that
// this finds what a search finds where folding, word boundaries and the
// fallback after failed tries could tell them apart.
func TestBearerTriedAsSearched(t *testing.T) {
	rs := compiledRules()
	i := slices.IndexFunc(rules[:], func(r rule) bool { return r.name == "bearer" })
	if i < 0 || !rules[i].anchored() {
		t.Fatal("the bearer rule is not tried at its triggers")
	}
	miss := "Bearer $TOKEN bearer x "
	for _, s := range []string{
		"Bearer abcdefghijk", "xbearer abcdefghijk bearer abcdefghijk", "_bearer abcdefghijk", "ébearer abcdefghijk",
		"bearer\tKKKKKKKKK", "BEARER  ſſſſſſſſſ==", "bearer abcdefgh=bearer abcdefghij", "bEaReR\f~~~~~~~~",
		"-Bearer abcdefghij", "9bearer abcdefghij", "9 bearer abcdefghij", "é bearer abcdefghij", "Kbearer abcdefghij", "ſbearer abcdefghij", "bearerbearer abcdefghij",
		strings.Repeat(miss, maxMisses+2) + "bearer abcdefghijk " + strings.Repeat(miss, 3) + "bearer ABCDEFGHIJ",
	} {
		for from := range min(len(s), 3) {
			if from > 0 && isWordByte(s[from]) {
				continue // providers searches from a byte before a word
			}
			checkTriedAsSearched(t, rs, i, s, from)
		}
	}
	for _, r := range rules {
		if r.anchored() && strings.Contains(r.re, "(?i") && r.name != "bearer" {
			t.Errorf("rule %s has (?i) and is tried at its triggers; check it as bearer is", r.name)
		}
	}
}
