package redact

// Byte classes, one bit each in byteClass. A table lookup costs one load
// where a chain of comparisons costs a mispredicted branch per byte, and
// the detectors look at every byte of every line.
const (
	bRun     = 1 << iota // letters, digits, '_' and '-': the words triggers start
	bToken               // bRun and '+', '/': the bytes of an opaque token
	bSpecial             // blanks, quotes and '\\': where splitWords looks twice
	bUpper               // A-Z
	bLower               // a-z
	bDigit               // 0-9

	up = bRun | bToken | bUpper
	lo = bRun | bToken | bLower
	dg = bRun | bToken | bDigit
)

// byteClass is filled in by the compiler, not at start-up; TestByteClass
// checks it against the definitions above.
var byteClass = [256]uint8{
	'\t': bSpecial, '\n': bSpecial, '\v': bSpecial, '\f': bSpecial, '\r': bSpecial, ' ': bSpecial,
	'"': bSpecial, '\'': bSpecial, '\\': bSpecial,
	'+': bToken, '/': bToken, '-': bRun | bToken, '_': bRun | bToken,
	'0': dg, '1': dg, '2': dg, '3': dg, '4': dg, '5': dg, '6': dg, '7': dg, '8': dg, '9': dg,
	'A': up, 'B': up, 'C': up, 'D': up, 'E': up, 'F': up, 'G': up, 'H': up, 'I': up, 'J': up, 'K': up, 'L': up, 'M': up,
	'N': up, 'O': up, 'P': up, 'Q': up, 'R': up, 'S': up, 'T': up, 'U': up, 'V': up, 'W': up, 'X': up, 'Y': up, 'Z': up,
	'a': lo, 'b': lo, 'c': lo, 'd': lo, 'e': lo, 'f': lo, 'g': lo, 'h': lo, 'i': lo, 'j': lo, 'k': lo, 'l': lo, 'm': lo,
	'n': lo, 'o': lo, 'p': lo, 'q': lo, 'r': lo, 's': lo, 't': lo, 'u': lo, 'v': lo, 'w': lo, 'x': lo, 'y': lo, 'z': lo,
}

// isRunByte reports whether c continues a word for trigger purposes.
func isRunByte(c byte) bool { return byteClass[c]&bRun != 0 }

// isWordByte reports whether c is a word character for \b: ASCII only,
// as in Go's regexps.
func isWordByte(c byte) bool { return byteClass[c]&(bUpper|bLower|bDigit) != 0 || c == '_' }

// isTokenByte reports whether c may appear in an opaque token.
func isTokenByte(c byte) bool { return byteClass[c]&bToken != 0 }

// isWordSpecial reports whether splitWords must look at c: a blank, a
// quote or a backslash.
func isWordSpecial(c byte) bool { return byteClass[c]&bSpecial != 0 }

// classMask returns the union of the classes of the bytes of s.
func classMask(s string) uint8 {
	var m uint8
	for i := 0; i < len(s); i++ {
		m |= byteClass[s[i]]
	}
	return m
}
