package policy

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// BenchmarkParseOnly1MB is the floor: mvdan/sh parsing the same 1 MB.
func BenchmarkParseOnly1MB(b *testing.B) {
	s := bigScript(1 << 20)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		if _, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(s), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseOnlyTypical is the floor for a typical command.
func BenchmarkParseOnlyTypical(b *testing.B) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for b.Loop() {
		if _, err := p.Parse(strings.NewReader(typical), ""); err != nil {
			b.Fatal(err)
		}
	}
}
