package policy

import (
	"path"
	"strings"
)

// NormalizePath is the one path normaliser of aar-exec. It turns p into a
// clean absolute path, resolving a relative p against cwd, and handles the
// four shapes as strings on every OS:
//
//   - Unix absolute: "/etc/../etc/passwd" -> "/etc/passwd"; "//" -> "/".
//   - Windows drive-rooted: `C:\Users\u` and "C:/Users/u" -> "c:/Users/u"
//     (drive letter lower-cased, separators turned into "/"). A
//     drive-relative "C:x" is taken as "c:/x".
//   - UNC: `\\server\share\x` -> "//server/share/x", never resolved against
//     cwd and never cleaned above the share; `\\?\C:\x` is "c:/x" and
//     `\\.\PhysicalDrive0` is "//./PhysicalDrive0".
//   - Relative: joined to cwd (itself normalised) and cleaned. With an
//     empty or relative cwd the result is cleaned but stays relative.
//
// Backslashes are separators only when p or cwd is Windows-shaped; in a
// Unix path a backslash is an ordinary file-name character.
func NormalizePath(p, cwd string) string {
	if abs, ok := normAbs(p); ok {
		return abs
	}
	if cwd == "" {
		if p == "" {
			return ""
		}
		return path.Clean(p)
	}
	base := NormalizePath(cwd, "")
	if !isAbs(base) {
		return path.Clean(p) // a relative cwd cannot anchor anything
	}
	return resolve(p, base)
}

// normAbs normalises p when it is absolute in one of the shapes.
func normAbs(p string) (string, bool) {
	switch {
	case isUNC(p):
		return normUNC(p), true
	case isDrive(p):
		return normDrive(p), true
	case strings.HasPrefix(p, "/"):
		return path.Clean(p), true
	}
	return "", false
}

// resolve normalises p against base, which is already normalised (so a
// UNC base reads "//server/share").
func resolve(p, base string) string {
	if abs, ok := normAbs(p); ok {
		return abs
	}
	if !isAbs(base) {
		return path.Clean(base + "/" + p)
	}
	if windowsShaped(base) {
		p = strings.ReplaceAll(p, `\`, "/")
		if strings.HasPrefix(p, "/") { // `\x` is rooted on the cwd's drive or share
			if strings.HasPrefix(base, "//") {
				return normUNC(shareRoot(base) + p)
			}
			return normDrive(base[:2] + p)
		}
		if strings.HasPrefix(base, "//") {
			return normUNC(base + "/" + p)
		}
		return normDrive(base + "/" + p)
	}
	return path.Clean(base + "/" + p)
}

// isAbs reports whether a normalised path is absolute in any of the shapes.
func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || isDrive(p) || isUNC(p)
}

// windowsShaped reports whether a normalised path is drive-rooted or UNC;
// path.Clean never leaves a Unix path starting with "//".
func windowsShaped(p string) bool { return isDrive(p) || strings.HasPrefix(p, "//") }

func isDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && ('a' <= p[0] && p[0] <= 'z' || 'A' <= p[0] && p[0] <= 'Z')
}

func isUNC(p string) bool {
	return strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, `\/`)
}

func normDrive(p string) string {
	drive := strings.ToLower(p[:1])
	rest := strings.ReplaceAll(p[2:], `\`, "/")
	return drive + ":" + path.Clean("/"+rest)
}

func normUNC(p string) string {
	s := strings.ReplaceAll(p, `\`, "/")
	s = strings.TrimLeft(s, "/")
	// Win32 namespace prefixes: \\?\C:\x and \\?\UNC\server\share.
	if rest, ok := strings.CutPrefix(s, "?/"); ok {
		if isDrive(rest) {
			return normDrive(rest)
		}
		if len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/") {
			s = rest[4:]
		} else {
			s = rest
		}
	}
	server, rest, _ := strings.Cut(s, "/")
	share, rest, _ := strings.Cut(rest, "/")
	root := "//" + server
	if share != "" {
		root += "/" + share
	}
	if rest == "" {
		return root
	}
	return root + strings.TrimSuffix(path.Clean("/"+rest), "/")
}

// shareRoot returns "//server/share" of a normalised UNC path.
func shareRoot(p string) string {
	s := strings.TrimPrefix(p, "//")
	server, rest, _ := strings.Cut(s, "/")
	share, _, _ := strings.Cut(rest, "/")
	return "//" + server + "/" + share
}

// Within reports whether path p is dir or lies under it, after both are
// normalised (relative ones against cwd). Windows-shaped paths compare
// case-insensitively. The CLI uses it to refuse a config file or an
// approvals file inside a writable path; resolving symlinks first is the
// caller's job.
func Within(p, dir, cwd string) bool {
	if p == "" || dir == "" {
		return false
	}
	p, dir = NormalizePath(p, cwd), NormalizePath(dir, cwd)
	if p == "" || dir == "" {
		return false
	}
	if windowsShaped(p) || windowsShaped(dir) {
		p, dir = strings.ToLower(p), strings.ToLower(dir)
	}
	if p == dir || dir == "/" && strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "//") {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// procLinks resolves the /proc magic links in the absolute Unix path p:
// /proc/PID/root and /proc/PID/task/TID/root are "/", the cwd links are
// self (for self and thread-self) or other (another process's, unknown).
// p is taken before cleaning, so /proc/self/root/../usr is /usr, as the
// kernel reads it, not /proc/self/usr. A glob or an unknown PID counts as
// any process; a glob that can match root or cwd counts as that link.
func procLinks(p, self, other string) string {
	var stack []string
	for part := range strings.SplitSeq(p, "/") {
		switch part {
		case "", ".":
			continue
		case "..":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		stack = append(stack, part)
		switch procLink(stack) {
		case "root":
			stack = stack[:0]
		case "cwd":
			cwd := other
			if stack[1] == "self" || stack[1] == "thread-self" {
				cwd = self
			}
			stack = append(stack[:0], strings.FieldsFunc(cwd, func(r rune) bool { return r == '/' })...)
		}
	}
	return "/" + strings.Join(stack, "/")
}

// procLink names the magic link ("root" or "cwd") that stack, the
// components of a path so far, ends in, or returns "".
func procLink(stack []string) string {
	var last string
	switch {
	case len(stack) == 3 && stack[0] == "proc":
		last = stack[2]
	case len(stack) == 5 && stack[0] == "proc" && mayBe(stack[2], "task"):
		last = stack[4]
	default:
		return ""
	}
	for _, link := range []string{"root", "cwd"} {
		if mayBe(last, link) {
			return link
		}
	}
	return ""
}

// mayBe reports whether a path component, perhaps a glob, can be name.
func mayBe(part, name string) bool {
	if part == name {
		return true
	}
	if !hasBashGlob(part) {
		return false
	}
	ok, _ := path.Match(bashGlob(part), name)
	return ok
}
