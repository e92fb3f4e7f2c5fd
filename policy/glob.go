package policy

import (
	"regexp"
	"strings"
)

// bashGlob turns one path component of a bash glob into a path.Match
// pattern that matches at least what bash would. path.Match reads [!x]
// as the set {!,x} and knows neither [[:alpha:]] nor extglob, so a
// bracket expression becomes "?" and an extglob group "*": never less
// than bash, at worst a little more.
func bashGlob(part string) string {
	var sb strings.Builder
	for i := 0; i < len(part); i++ {
		c := part[i]
		switch {
		case isExtGlobOp(c) && i+1 < len(part) && part[i+1] == '(':
			sb.WriteByte('*')
			i = groupEnd(part, i+1) - 1
		case c == '[':
			if end := bracketEnd(part, i); end > 0 {
				sb.WriteByte('?')
				i = end - 1
			} else {
				sb.WriteString(`\[`) // bash takes an unclosed [ literally
			}
		case c == '\\' || c == ']':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// hasBashGlob reports whether a path component holds a glob operator,
// extglob groups included.
// maxGlobPart bounds a glob component the policy matches names against:
// matching costs its length for each name tried, and no name on a
// filesystem is this long. A longer one is taken to match, which fails
// closed.
const maxGlobPart = 1024

// collapseStars returns p with each run of unescaped * made one, as bash
// matches it; a * that starts an extglob group, *(...), stays.
func collapseStars(p string) string {
	if !strings.Contains(p, "**") {
		return p
	}
	var sb strings.Builder
	star := false // the last byte written is an unescaped *
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p):
			sb.WriteByte(c)
			sb.WriteByte(p[i+1])
			i++
			star = false
			continue
		case c == '*' && star && !(i+1 < len(p) && p[i+1] == '('):
			continue
		}
		sb.WriteByte(c)
		star = c == '*'
	}
	return sb.String()
}

func hasBashGlob(part string) bool {
	if strings.ContainsAny(part, "*?[") {
		return true
	}
	for i := 0; i+1 < len(part); i++ {
		if isExtGlobOp(part[i]) && part[i+1] == '(' {
			return true
		}
	}
	return false
}

func isExtGlobOp(c byte) bool { return strings.IndexByte("?*+@!", c) >= 0 }

// groupEnd returns the index just past the ")" closing the group whose
// "(" is at s[open], or len(s) when it is not closed.
func groupEnd(s string, open int) int {
	depth := 0
	for j := open; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
	return len(s)
}

// bracketEnd returns the index just past the bracket expression whose
// "[" is at s[open], or -1 when bash would take the "[" literally. As in
// bash, a "]" first in the set (after ! or ^) is a member, and [:class:],
// [=c=] and [.c.] are units.
func bracketEnd(s string, open int) int {
	j := open + 1
	if j < len(s) && (s[j] == '!' || s[j] == '^') {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) {
		if s[j] == ']' {
			return j + 1
		}
		if s[j] == '[' && j+1 < len(s) && strings.IndexByte(":=.", s[j+1]) >= 0 {
			if k := strings.Index(s[j+2:], string(s[j+1])+"]"); k >= 0 {
				j += 2 + k + 2
				continue
			}
		}
		j++
	}
	return -1
}

// globMayMatchDot reports whether a glob component can match a name that
// starts with a dot: bash needs the dot written first, or first in an
// alternative of a leading extglob group (@(.env), *(.)env; never !(...)).
func globMayMatchDot(part string) bool {
	if strings.HasPrefix(part, ".") {
		return true
	}
	if len(part) > 1 && isExtGlobOp(part[0]) && part[0] != '!' && part[1] == '(' {
		end := groupEnd(part, 1)
		group := part[:end]
		if strings.Contains(group, "(.") || strings.Contains(group, "|.") {
			return true
		}
		// *(x) and ?(x) may match nothing: what follows comes first.
		return (part[0] == '*' || part[0] == '?') && globMayMatchDot(part[end:])
	}
	return false
}

// globRegexp compiles one path component of a bash glob into a regular
// expression that matches the names bash would, brackets and extglob
// groups included, so that /etc/[s][h]* is tried against "shadow" alone
// and not against every name. !(...) cannot be said in RE2 and becomes
// ".*": never less than bash. A component RE2 refuses yields nil.
func globRegexp(part string) *regexp.Regexp {
	re, err := regexp.Compile(`^(?s:` + globRegexpBody(part) + `)$`)
	if err != nil {
		return nil
	}
	return re
}

// globRegexpBody translates a component (or an alternative inside an
// extglob group) without the anchors.
func globRegexpBody(part string) string {
	var sb strings.Builder
	lit := 0 // start of the pending literal run
	flush := func(i int) { sb.WriteString(regexp.QuoteMeta(part[lit:i])) }
	for i := 0; i < len(part); i++ {
		c := part[i]
		switch {
		case isExtGlobOp(c) && i+1 < len(part) && part[i+1] == '(':
			flush(i)
			end := groupEnd(part, i+1)
			sb.WriteString(extGroupRegexp(c, part[i+2:max(i+2, end-1)]))
			i, lit = end-1, end
		case c == '*' || c == '?':
			flush(i)
			sb.WriteString(map[byte]string{'*': ".*", '?': "."}[c])
			lit = i + 1
		case c == '[' && bracketEnd(part, i) > 0:
			flush(i)
			end := bracketEnd(part, i)
			sb.WriteString(bracketRegexp(part[i+1 : end-1]))
			i, lit = end-1, end
		case c == '\\' && i+1 < len(part):
			flush(i)
			sb.WriteString(regexp.QuoteMeta(part[i+1 : i+2]))
			i++
			lit = i + 1
		}
	}
	flush(len(part))
	return sb.String()
}

// extGroupRegexp translates the extglob group op(body).
func extGroupRegexp(op byte, body string) string {
	if op == '!' {
		return ".*"
	}
	var alts []string
	for _, alt := range splitAlternatives(body) {
		alts = append(alts, globRegexpBody(alt))
	}
	group := "(?:" + strings.Join(alts, "|") + ")"
	switch op {
	case '?':
		return group + "?"
	case '*':
		return group + "*"
	case '+':
		return group + "+"
	}
	return group
}

// splitAlternatives splits an extglob group's body at its top-level "|".
func splitAlternatives(body string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '(':
			depth++
		case ')':
			depth--
		case '|':
			if depth == 0 {
				out = append(out, body[start:i])
				start = i + 1
			}
		}
	}
	return append(out, body[start:])
}

// bracketRegexp translates the inside of a bracket expression. RE2 knows
// [:class:]; [=c=] and [.c.] are the character c.
func bracketRegexp(set string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	if set != "" && (set[0] == '!' || set[0] == '^') {
		sb.WriteByte('^')
		set = set[1:]
	}
	for j := 0; j < len(set); j++ {
		c := set[j]
		if c == '[' && j+1 < len(set) && strings.IndexByte(":=.", set[j+1]) >= 0 {
			if k := strings.Index(set[j+2:], string(set[j+1])+"]"); k >= 0 {
				inner := set[j+2 : j+2+k]
				if set[j+1] == ':' {
					sb.WriteString("[:" + inner + ":]")
				} else {
					sb.WriteString(regexp.QuoteMeta(inner))
				}
				j += 2 + k + 1
				continue
			}
		}
		if c == '\\' && j+1 < len(set) {
			j++
			c = set[j]
		}
		if strings.IndexByte(`\[]^`, c) >= 0 {
			sb.WriteByte('\\')
		}
		sb.WriteByte(c)
	}
	sb.WriteByte(']')
	return sb.String()
}

// wildcardOnly reports whether a glob component matches nearly any name,
// as "*" does: it is made of *, ?, !(...) groups, groups of such
// components, and bracket expressions that are negated or hold a range
// or a class ([!.]*, [a-z]*). ls * is not tried against every denied
// name; a narrow set such as [s] or [mM] names a letter as a literal
// does, so /etc/[s][h]* is.
func wildcardOnly(part string) bool {
	for i := 0; i < len(part); i++ {
		c := part[i]
		switch {
		case isExtGlobOp(c) && i+1 < len(part) && part[i+1] == '(':
			end := groupEnd(part, i+1)
			if c != '!' {
				for _, alt := range splitAlternatives(part[i+2 : max(i+2, end-1)]) {
					if !wildcardOnly(alt) {
						return false
					}
				}
			}
			i = end - 1
		case c == '*' || c == '?':
		case c == '[' && bracketEnd(part, i) > 0:
			end := bracketEnd(part, i)
			if !wideBracket(part[i+1 : end-1]) {
				return false
			}
			i = end - 1
		default:
			return false
		}
	}
	return true
}

// wideBracket reports whether a bracket expression's inside matches many
// characters: negated, or with a range or a class.
func wideBracket(set string) bool {
	if set != "" && (set[0] == '!' || set[0] == '^') {
		return true
	}
	return strings.Contains(set, "[:") || len(set) > 2 && strings.Contains(set[1:len(set)-1], "-")
}
