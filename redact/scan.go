package redact

import (
	"encoding/base64"
	"strings"
)

// A scrubber collects the byte ranges of one string to mask. Ranges from
// different detectors may overlap or touch; they merge into one [Mask].
type scrubber struct {
	s      string
	masked []bool     // lazily allocated, one per byte of s
	stdin  stdinProbe // does s pipe a secret into a reader of one
}

func (c *scrubber) mask(a, b int) {
	if a < 0 || b > len(c.s) || a >= b {
		return
	}
	if c.masked == nil {
		c.masked = make([]bool, len(c.s))
	}
	for i := a; i < b; i++ {
		c.masked[i] = true
	}
}

// overlaps reports whether any byte of [a,b) is already masked, so a
// generic detector leaves a provider token's kept prefix alone.
func (c *scrubber) overlaps(a, b int) bool {
	if c.masked == nil {
		return false
	}
	for i := a; i < b && i < len(c.masked); i++ {
		if c.masked[i] {
			return true
		}
	}
	return false
}

func (c *scrubber) apply() string {
	if c.masked == nil {
		return c.s
	}
	var b strings.Builder
	b.Grow(len(c.s))
	for i := 0; i < len(c.s); {
		if !c.masked[i] {
			j := i
			for j < len(c.s) && !c.masked[j] {
				j++
			}
			b.WriteString(c.s[i:j])
			i = j
			continue
		}
		b.WriteString(Mask)
		for i < len(c.s) && c.masked[i] {
			i++
		}
	}
	return b.String()
}

// accept reports whether the value at [a,b) of a secret-named field
// should be masked.
func (c *scrubber) accept(a, b int, st strength) bool {
	if st == notSecret || a >= b || c.overlaps(a, b) {
		return false
	}
	v := c.s[a:b]
	if isPlaceholder(v) || isPathLike(v) {
		return false
	}
	if st == weak {
		return looksSecretish(v)
	}
	return true
}

// isPlaceholder reports whether v only refers to a secret or stands in for
// one: a shell or template reference, a <placeholder>, stars, or a value
// already masked.
func isPlaceholder(v string) bool {
	if v == "" || strings.Contains(v, Mask) {
		return true
	}
	switch v[0] {
	case '$', '`':
		return true
	case '%':
		// %VAR% on Windows, %s in a printf format
		return strings.HasSuffix(v, "%") || len(v) <= 3
	case '<':
		return strings.HasSuffix(v, ">")
	case '{':
		return strings.HasPrefix(v, "{{")
	}
	if onlyFiller(v) {
		return true
	}
	if len(v) <= 9 {
		for _, w := range [...]string{"true", "false", "yes", "no", "null", "none", "nil", "on", "off", "undefined",
			"redacted", "hidden", "masked", "prompt", "stdin", "-", "env", "required", "optional"} {
			if strings.EqualFold(v, w) {
				return true
			}
		}
	}
	for _, p := range [...]string{"your", "env:", "file:", "fd:", "ssh-", "ecdsa-", "secrets."} {
		if hasPrefixFold(v, p) {
			return true
		}
	}
	return strings.Contains(v, "laceholder") || strings.Contains(v, "LACEHOLDER")
}

// onlyFiller reports whether v is made of stars, x's, dots and the like:
// ****, xxxx, ..., ???.
func onlyFiller(v string) bool {
	for _, r := range v {
		switch r {
		case '*', 'x', 'X', '.', '…', '-', '_', '#', '?':
		default:
			return false
		}
	}
	return true
}

// isPathLike reports whether v names a file rather than holding a secret:
// credential files are referred to by path all the time.
func isPathLike(v string) bool {
	if strings.HasPrefix(v, "~/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") ||
		strings.HasPrefix(v, "@") {
		return true
	}
	if strings.HasPrefix(v, "/") && len(v) > 1 {
		// A base64 secret may start with '/' too, but is not made of
		// word-like segments.
		return looksLikePath(v)
	}
	if i := strings.LastIndexByte(v, '.'); i > 0 && len(v)-i <= 8 {
		ext := v[i+1:]
		for _, e := range [...]string{"txt", "json", "pem", "key", "crt", "cer", "env", "yaml", "yml", "ini", "cfg",
			"conf", "p12", "pfx", "jks", "gpg", "asc", "cookie", "cookies", "toml", "secret", "token", "netrc"} {
			if strings.EqualFold(ext, e) {
				return !strings.ContainsAny(v[:i], " =:")
			}
		}
	}
	return false
}

// looksLikePath reports whether v, which holds '/', reads as a file path:
// no base64 punctuation, and at least two segments that are words
// (usr, Library, workspaceStorage) or hex digests, where a random token
// has none.
func looksLikePath(v string) bool {
	if strings.ContainsAny(v, "+=") {
		return false
	}
	words := 0
	for seg := range strings.SplitSeq(v, "/") {
		if len(seg) < 2 {
			continue
		}
		n, u, l, d, ch := charStats(seg)
		switch {
		case d == 0 && l*2 >= n && ch*4 <= n: // a word or CamelCase identifier
			words++
		case u == 0 && isLowerHex(seg): // a digest or build id
			words++
		}
	}
	return words >= 2 || strings.Contains(v, ".") && words >= 1
}

func isHexFold(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isLowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// charStats counts the ASCII letters and digits of s by class, and how
// often the class changes from one to the next: random tokens change
// class at about 60% of positions, words and identifiers rarely.
func charStats(s string) (n, upper, lower, digit, changes int) {
	var count [bDigit/bUpper + 1]int // cls/bUpper is 1, 2 or 4
	prev := uint8(0)
	for i := 0; i < len(s); i++ {
		cls := byteClass[s[i]] & (bUpper | bLower | bDigit)
		if cls == 0 {
			continue
		}
		count[cls/bUpper]++
		if prev != cls && prev != 0 {
			changes++
		}
		prev = cls
	}
	upper, lower, digit = count[1], count[bLower/bUpper], count[bDigit/bUpper]
	return upper + lower + digit, upper, lower, digit, changes
}

// looksRandom reports whether s looks machine-generated rather than like a
// word or an identifier.
func looksRandom(s string) bool {
	// Most words have no digit: the class mask, a loop without
	// branches, turns them away before the statistics.
	if m := classMask(s); len(s) < 8 || m&bDigit == 0 || m&(bUpper|bLower) == 0 {
		return false
	}
	n, _, _, _, ch := charStats(s)
	return n >= 8 && float64(ch) >= 0.3*float64(n-1)
}

// looksSecretish is the test for values of weakly secret names: long
// enough and not a plain word.
func looksSecretish(v string) bool {
	m := classMask(v) & (bUpper | bLower | bDigit)
	switch {
	case len(v) >= 8 && m&bDigit != 0 && m&(bUpper|bLower) != 0:
		return true
	case len(v) >= 16 && m&(m-1) != 0: // two classes or more
		n, _, _, _, _ := charStats(v)
		return n >= 16
	}
	return false
}

// notPlainWord rejects "Bearer authentication"-style prose.
func notPlainWord(s string) bool {
	n, _, _, d, _ := charStats(s)
	return d > 0 || n >= 20 || strings.ContainsAny(s, "._~+/-=")
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isHeaderByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// valueAt returns the extent of the value starting at a: the inside of a
// quoted string, or a run of bytes up to a shell or query separator.
func valueAt(s string, a int) (int, int) {
	if a >= len(s) {
		return a, a
	}
	switch s[a] {
	case '"', '\'':
		q := s[a]
		for i := a + 1; i < len(s); i++ {
			if s[i] == '\\' && q == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					// \" ends a value nested in an escaped JSON string.
					return a + 1, i
				}
				i++
				continue
			}
			if s[i] == q {
				return a + 1, i
			}
		}
		return a + 1, runEnd(s, a+1)
	case '\\':
		if a+1 < len(s) && s[a+1] == '"' {
			end := strings.Index(s[a+2:], `\"`)
			if end < 0 {
				return a + 2, runEnd(s, a+2)
			}
			return a + 2, a + 2 + end
		}
	case '{', '[', '(':
		return a, a
	}
	return a, runEnd(s, a)
}

func runEnd(s string, a int) int {
	for i := a; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '&', ';', '"', '\'', '|', '<', '>', ',', ')', '(', '`', '}', '\\':
			return i
		}
	}
	return len(s)
}

// pairs masks the values of NAME=value assignments, flags and query
// parameters whose name looks secret.
func (c *scrubber) pairs() {
	s := c.s
	// Each value is looked at once: the search resumes after it, which
	// keeps "password=password=..." linear.
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], '=')
		if e < 0 {
			return
		}
		i = c.pairAt(i + e)
	}
}

// pairAt handles the '=' at i and returns where the search resumes.
func (c *scrubber) pairAt(i int) int {
	s := c.s
	if i+1 < len(s) && s[i+1] == '=' || i+2 < len(s) && s[i+1] == '~' && s[i+2] == ' ' {
		return i + 1 // ==, and bash's =~
	}
	if i > 0 && strings.IndexByte("=!<>", s[i-1]) >= 0 {
		return i + 1
	}
	j := i
	for j > 0 && isNameByte(s[j-1]) {
		j--
	}
	if j == i {
		// "name = value", as in INI files and ~/.aws/credentials: only
		// random-looking values, since this is also how code assigns.
		k := i
		for k > 0 && s[k-1] == ' ' {
			k--
		}
		if k == i || k == 0 {
			return i + 1
		}
		j = k
		for j > 0 && isNameByte(s[j-1]) {
			j--
		}
		if j == k {
			return i + 1
		}
		st := nameStrength(s[j:k])
		a := i + 1
		for a < len(s) && s[a] == ' ' {
			a++
		}
		a, b := valueAt(s, a)
		if st == notSecret || b-a < 8 || strings.ContainsAny(s[a:b], "()") || !looksSecretish(s[a:b]) {
			return i + 1
		}
		if c.accept(a, b, st) {
			c.mask(a, b)
		}
		return max(b, i+1)
	}
	if j > 0 && s[j-1] == '$' {
		return i + 1 // ${NAME=default}-style expansions
	}
	st := nameStrength(s[j:i])
	if st == notSecret {
		return i + 1
	}
	a, b := valueAt(s, i+1)
	if c.accept(a, b, st) {
		c.mask(a, b)
	}
	return max(b, i+1)
}

// colons masks values of secret-named JSON fields ("password": "x"),
// YAML keys and HTTP headers (Authorization: Bearer x, X-Api-Key: x,
// Cookie: a=b).
func (c *scrubber) colons() {
	s := c.s
	// As in pairs, the search resumes after each value it looked at.
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], ':')
		if e < 0 {
			return
		}
		i = c.colonAt(i + e)
	}
}

// maxHeaderValue bounds how far a header value is searched for its end,
// which keeps adversarial input ("Cookie: Cookie: ...") linear.
const maxHeaderValue = 64 << 10

// colonAt handles the ':' at i and returns where the search resumes.
func (c *scrubber) colonAt(i int) int {
	s := c.s
	next := i + 1
	j := i
	for j > 0 && s[j-1] == ' ' {
		j--
	}
	// A quoted field name: "password": or \"password\": or 'password':.
	if j > 1 && (s[j-1] == '"' || s[j-1] == '\'') {
		q := s[j-1]
		end := j - 1
		if end > 0 && s[end-1] == '\\' {
			end--
		}
		k := end
		for k > 0 && isNameByte(s[k-1]) {
			k--
		}
		if k > 0 && k < end && (s[k-1] == q || (s[k-1] == '\\' && k > 1 && s[k-2] == q)) {
			st := nameStrength(s[k:end])
			if st == notSecret {
				return next
			}
			a := i + 1
			for a < len(s) && s[a] == ' ' {
				a++
			}
			a, b := valueAt(s, a)
			if c.accept(a, b, st) {
				c.mask(a, b)
			}
			return max(b, next)
		}
	}
	// A bare header or YAML key: Authorization: ..., password: ...
	j = i
	for j > 0 && isHeaderByte(s[j-1]) {
		j--
	}
	if j == i || i-j > 64 {
		return next
	}
	var quote byte
	if j > 0 {
		switch s[j-1] {
		case '"', '\'':
			quote = s[j-1]
		case ' ', '\t', '\n', '{', ',', '(':
		default:
			return next
		}
	}
	a := i + 1
	if a >= len(s) || !isSpace(s[a]) && quote == 0 {
		return next
	}
	name := s[j:i]
	kind := 0 // 1: authorization, 2: cookie, 3: other secret name
	st := notSecret
	switch {
	case strings.EqualFold(name, "authorization") || strings.EqualFold(name, "proxy-authorization"):
		kind = 1
	case strings.EqualFold(name, "cookie") || strings.EqualFold(name, "set-cookie"):
		kind = 2
	default:
		if st = nameStrength(name); st == notSecret {
			return next
		}
		kind = 3
	}
	for a < len(s) && (s[a] == ' ' || s[a] == '\t') {
		a++
	}
	ctxEnd := min(len(s), a+maxHeaderValue)
	if quote != 0 {
		if e := strings.IndexByte(s[a:ctxEnd], quote); e >= 0 {
			ctxEnd = a + e
		}
	}
	if e := strings.IndexByte(s[a:ctxEnd], '\n'); e >= 0 {
		ctxEnd = a + e
	}
	for ctxEnd > a && isSpace(s[ctxEnd-1]) {
		ctxEnd--
	}
	if a >= ctxEnd {
		return next
	}
	switch kind {
	case 1:
		w := a
		for w < ctxEnd && !isSpace(s[w]) {
			w++
		}
		if w == ctxEnd || isPlaceholder(s[a:w]) && !strings.HasPrefix(s[a:w], "<") {
			c.maskValue(a, w)
			return max(w, next)
		}
		r := w
		for r < ctxEnd && isSpace(s[r]) {
			r++
		}
		switch strings.ToLower(s[a:w]) {
		case "bearer", "basic", "token", "apikey", "api-key", "key", "bot", "jwt", "sso-key", "ghp", "otp":
			e := r
			for e < ctxEnd && !isSpace(s[e]) {
				e++
			}
			c.maskValue(r, e)
			return max(e, next)
		}
		c.maskValue(r, ctxEnd)
	case 2:
		c.maskValue(a, ctxEnd)
	default:
		e := a
		for e < ctxEnd && !isSpace(s[e]) && s[e] != ',' && s[e] != '}' {
			e++
		}
		if c.accept(a, e, st) {
			c.mask(a, e)
		}
		return max(e, next)
	}
	return max(ctxEnd, next)
}

// maskValue masks [a,b) unless it is a placeholder or already masked.
func (c *scrubber) maskValue(a, b int) {
	if a >= b || c.overlaps(a, b) || isPlaceholder(c.s[a:b]) {
		return
	}
	c.mask(a, b)
}

// urls masks the password of scheme://user:password@host, and a bare
// token used as the user name (https://TOKEN@host).
func (c *scrubber) urls() {
	s := c.s
	// IndexByte is much faster than Index, and most lines hold no ':'.
	if strings.IndexByte(s, ':') < 0 {
		return
	}
	for from := 0; ; {
		p := strings.Index(s[from:], "://")
		if p < 0 {
			return
		}
		p += from
		from = p + 3
		a := p + 3
		e := a
		for e < len(s) {
			// '?' and '#' do not end the authority here: a password
			// typed without percent-encoding may contain them.
			switch s[e] {
			case '/', ' ', '\t', '\n', '\r', '"', '\'', '`', '<', '>', '\\':
			default:
				e++
				continue
			}
			break
		}
		at := strings.LastIndexByte(s[a:e], '@')
		if at < 0 {
			continue
		}
		ui := s[a : a+at]
		if colon := strings.IndexByte(ui, ':'); colon >= 0 {
			c.maskValue(a+colon+1, a+at)
		} else if len(ui) >= 16 && looksRandom(ui) {
			c.maskValue(a, a+at)
		}
		from = a + at
	}
}

// opaque masks long, random-looking tokens that no other detector named:
// mixed upper case, lower case and digits that change class often. Hex
// digests, UUIDs, identifiers, SSH public keys, SRI hashes and base64 of
// text are kept.
func (c *scrubber) opaque() {
	s := c.s
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		j := i
		var m uint8 // the classes of the token's bytes
		for j < len(s) && isTokenByte(s[j]) {
			m |= byteClass[s[j]]
			j++
		}
		if m&(bUpper|bLower|bDigit) != bUpper|bLower|bDigit {
			i = j // a secret mixes all three
			continue
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if end > j && end < len(s) && isTokenByte(s[end]) {
			end = j // '=' of an assignment, not padding
		}
		if c.opaqueSecret(i, j) {
			c.mask(i, end)
		}
		i = j
	}
}

func (c *scrubber) opaqueSecret(i, j int) bool {
	if j-i < 20 {
		return false
	}
	t := c.s[i:j]
	n, u, l, d, ch := charStats(t)
	// Random base62 changes class at ~62% of positions; CamelCase test
	// names with an acronym and a digit reach ~35%, so short tokens need
	// more evidence than long ones.
	minRatio := 0.35
	if n < 32 {
		minRatio = 0.42
	}
	if n < 20 || u == 0 || l == 0 || d == 0 || float64(ch) < minRatio*float64(n-1) {
		return false
	}
	if c.overlaps(i, j) {
		return false
	}
	if strings.HasPrefix(t, "AAAA") {
		return false // SSH public key blobs and other length-prefixed binary
	}
	if isHexFold(strings.TrimPrefix(t, "0x")) {
		return false // checksummed hex such as Ethereum addresses
	}
	for _, p := range [...]string{"sha1-", "sha256-", "sha384-", "sha512-", "md5-"} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	before := c.s[:i]
	for _, p := range [...]string{"h1:", "sha256:", "sha512:", "sha1:", "sha384:", "integrity=", "md5:", "base64,"} {
		if len(before) >= len(p) && hasPrefixFold(before[len(before)-len(p):], p) {
			return false // digests and fingerprints: SHA256:nThbg6k...
		}
	}
	if strings.Count(t, "/") >= 3 && looksLikePath(t) {
		return false
	}
	return !decodesToText(t)
}

// decodesToText reports whether t is base64 of printable text, such as an
// encoded config or a `echo hello | base64` in a command line.
func decodesToText(t string) bool {
	trimmed := strings.TrimRight(t, "=")
	var buf [512]byte
	if base64.RawStdEncoding.DecodedLen(len(trimmed)) > len(buf) {
		return false
	}
	for _, enc := range [...]*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		n, err := enc.Decode(buf[:], []byte(trimmed))
		if err != nil || n == 0 {
			continue
		}
		printable := 0
		for _, b := range buf[:n] {
			if b >= 0x20 && b < 0x7f || b == '\n' || b == '\t' || b == '\r' {
				printable++
			}
		}
		if printable*10 >= n*9 {
			return true
		}
	}
	return false
}

// pem masks the body of PEM private key blocks, to the END line or, when
// there is none, to the end of s.
func (c *scrubber) pem() {
	s := c.s
	// IndexByte is much faster than Index, and most lines hold no 'B'.
	if strings.IndexByte(s, 'B') < 0 {
		return
	}
	for from := 0; ; {
		p := strings.Index(s[from:], "-----BEGIN ")
		if p < 0 {
			return
		}
		p += from
		hEnd := strings.Index(s[p+11:], "-----")
		if hEnd < 0 {
			return
		}
		label := s[p+11 : p+11+hEnd]
		from = p + 11 + hEnd + 5
		if !strings.Contains(label, "PRIVATE KEY") || len(label) > 40 {
			continue
		}
		body := from
		end := len(s)
		if e := strings.Index(s[body:], "-----END "); e >= 0 {
			end = body + e
		}
		a, b := body, end
		for a < b && isSpace(s[a]) {
			a++
		}
		for b > a && isSpace(s[b-1]) {
			b--
		}
		// keep literal \n escapes next to the markers readable
		c.maskValue(a, b)
		from = end
	}
}
