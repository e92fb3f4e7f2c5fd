package redact

import (
	"math/rand/v2"
	"os"
	"regexp"
	"strings"
	"testing"
)

// maySecretName turns names away before classifyWords looks at them: it
// must never turn away one that classifyWords finds secret. The names are
// made of every upper-case word names.go spells out (so a word added to
// its lists without a part in maySecretName fails here), joined in every
// way splitName separates words, in random case, and of the runs of name
// bytes in the corpus.
func TestMaySecretName(t *testing.T) {
	src, err := os.ReadFile("names.go")
	if err != nil {
		t.Fatal(err)
	}
	var atoms []string
	for _, m := range regexp.MustCompile(`"([A-Z0-9]{2,})"`).FindAllStringSubmatch(string(src), -1) {
		atoms = append(atoms, m[1])
	}
	if len(atoms) < 200 {
		t.Fatalf("found %d words in names.go; the pattern no longer reads it", len(atoms))
	}
	atoms = append(atoms, "X", "AB", "DB", "GITHUB", "api", "Key", "k", "s", "id", "1")
	var names []string
	names = append(names, atoms...)
	for _, name := range []string{"secrets.txt", "benign.txt"} {
		for _, ml := range readCorpus(t, name) {
			names = append(names, strings.FieldsFunc(ml.text, func(r rune) bool { return r > 127 || !isNameByte(byte(r)) })...)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	seps := []string{"_", "-", ".", "/", ":", "", "$", "__", " "}
	for range 300000 {
		var b strings.Builder
		for k := range 1 + r.IntN(4) {
			if k > 0 {
				b.WriteString(seps[r.IntN(len(seps))])
			}
			a := atoms[r.IntN(len(atoms))]
			switch r.IntN(4) {
			case 0:
				a = strings.ToLower(a)
			case 1:
				a = a[:1] + strings.ToLower(a[1:]) // camelCase
			}
			b.WriteString(a)
		}
		names = append(names, strings.TrimLeft(b.String(), seps[r.IntN(len(seps))]))
	}
	secret := 0
	for _, n := range names {
		st, keyed := classifyWords(n)
		if st != notSecret {
			secret++
		}
		if (st != notSecret || keyed) && !maySecretName(n) {
			t.Errorf("maySecretName(%q) = false, but classifyWords says %v, %v", n, st, keyed)
		}
	}
	if secret < len(names)/10 {
		t.Errorf("only %d of %d names are secret; the test proves little", secret, len(names))
	}
}

// partPairs is the two-letter filter in front of secretParts: every part
// must pass it, and it must pass nothing that starts no part.
func TestPartPairs(t *testing.T) {
	var want [32]uint32
	for first, parts := range secretParts {
		for _, p := range parts {
			if int(p[0]&31) != first || p != strings.ToLower(p) {
				t.Errorf("part %q is filed under %c", p, 'a'+first-1)
			}
			want[p[0]&31] |= 1 << (p[1] & 31)
		}
	}
	if partPairs != want {
		t.Errorf("partPairs = %v, want %v", partPairs, want)
	}
}
