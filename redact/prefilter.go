package redact

import "strings"

// prefilters gate the regexps of rules that are searched for rather than
// tried at their triggers, and that benign lines trigger often ("Bearer
// $TOKEN", grep 'password'). A prefilter reports false only when its
// rule's regexp cannot match anywhere in the text, so skipping the search
// then changes nothing; TestPrefiltersAreNecessary checks this.
func prefilter(rule string) func(t string) bool {
	switch rule {
	case "bearer":
		return mayBearer
	case "sql-password":
		return maySQLPassword
	}
	return nil
}

// isRESpace reports whether c is in \s of Go's regexps: \t \n \f \r and
// space, not \v.
func isRESpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// mayBearer is the prefilter of `(?i)\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)`.
// A match holds "bearer" in ASCII letters (none of b, e, a, r folds to a
// rune outside ASCII), then \s+, then a rune of the class. The class holds
// no blank, so that rune starts right after the run of blanks, and its
// first byte is in the class or leads ſ (C5 BF) or K (E2 84 AA), the
// runes (?i) adds to it.
func mayBearer(t string) bool {
	for i := 0; i+6 < len(t); i++ {
		if t[i]|0x20 != 'b' || !hasPrefixFold(t[i:], "bearer") {
			continue
		}
		j := i + 6
		for j < len(t) && isRESpace(t[j]) {
			j++
		}
		if j == i+6 || j == len(t) {
			continue
		}
		if c := t[j]; byteClass[c]&bToken != 0 || c == '.' || c == '~' || c == 0xC5 || c == 0xE2 {
			return true
		}
	}
	return false
}

// maySQLPassword is the prefilter of
// `(?i)\b(?:password|identified\s+by)\s+'([^']+)'`. A match ends in a
// quote, one byte or more other than a quote, and a quote, and the quote
// that opens the value follows \s+, which follows the d of password or
// the y of by (neither folds to a rune outside ASCII).
func maySQLPassword(t string) bool {
	for q := 1; q+2 < len(t); q++ {
		if t[q] != '\'' || t[q+1] == '\'' || !isRESpace(t[q-1]) {
			continue
		}
		r := q - 1
		for r >= 0 && isRESpace(t[r]) {
			r--
		}
		if r >= 0 && (t[r]|0x20 == 'd' || t[r]|0x20 == 'y') && strings.IndexByte(t[q+2:], '\'') >= 0 {
			return true
		}
	}
	return false
}
