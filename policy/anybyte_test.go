package policy

import (
	"strings"
	"testing"
)

// anyByte and lastSlash stand in for strings.ContainsAny and
// strings.LastIndexAny on the walk's hot paths: they must agree on every
// input, invalid UTF-8 included.
func TestAnyByteMatchesStrings(t *testing.T) {
	sets := []string{`/\`, "\\*?[~{", `\*?[`, " \t\n", "\x00", "~"}
	words := []string{"", "a", "/", `\`, "ab/cd", `C:\x`, "héllo/wörld", "\xff/\xfe", "\xe2\x82\xac", "x*y", "~u",
		"{a,b}", "a b", "tab\there", "line\n", "very-long-word-without-any-of-them", "\x00dyn", "日本/語"}
	for _, set := range sets {
		for _, w := range words {
			if got, want := anyByte(w, set), strings.ContainsAny(w, set); got != want {
				t.Errorf("anyByte(%q, %q) = %v, want %v", w, set, got, want)
			}
		}
	}
	for _, w := range words {
		if got, want := needsExpanding(w), strings.ContainsAny(w, "\\*?[~{"); got != want {
			t.Errorf("needsExpanding(%q) = %v, want %v", w, got, want)
		}
		if got, want := hasSlash(w), strings.ContainsAny(w, `/\`); got != want {
			t.Errorf("hasSlash(%q) = %v, want %v", w, got, want)
		}
		if got, want := lastSlash(w), strings.LastIndexAny(w, `/\`); got != want {
			t.Errorf("lastSlash(%q) = %d, want %d", w, got, want)
		}
	}
}

func FuzzAnyByte(f *testing.F) {
	f.Add("a/b\\c*d", "/\\")
	f.Fuzz(func(t *testing.T, s, set string) {
		ascii := strings.Map(func(r rune) rune {
			if r < 0x80 {
				return r
			}
			return -1
		}, set)
		if anyByte(s, ascii) != strings.ContainsAny(s, ascii) {
			t.Fatalf("anyByte(%q, %q)", s, ascii)
		}
		if needsExpanding(s) != strings.ContainsAny(s, "\\*?[~{") || hasSlash(s) != strings.ContainsAny(s, `/\`) {
			t.Fatalf("needsExpanding or hasSlash(%q)", s)
		}
		if lastSlash(s) != strings.LastIndexAny(s, `/\`) {
			t.Fatalf("lastSlash(%q)", s)
		}
	})
}
