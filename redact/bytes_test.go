package redact

import "testing"

func TestByteClass(t *testing.T) {
	for i := range 256 {
		c := byte(i)
		upper, lower, digit := c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9'
		run := upper || lower || digit || c == '_' || c == '-'
		var want uint8
		for _, f := range []struct {
			ok  bool
			bit uint8
		}{
			{run, bRun},
			{run || c == '+' || c == '/', bToken},
			{isSpace(c) || c == '"' || c == '\'' || c == '\\', bSpecial},
			{upper, bUpper},
			{lower, bLower},
			{digit, bDigit},
		} {
			if f.ok {
				want |= f.bit
			}
		}
		if byteClass[c] != want {
			t.Errorf("byteClass[%q] = %#x, want %#x", c, byteClass[c], want)
		}
	}
}
