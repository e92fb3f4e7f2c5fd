package policy

import "strings"

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
