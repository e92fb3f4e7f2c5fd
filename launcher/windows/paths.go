package windows

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/aar-agent/aar-exec/plan"
)

// checkAbsPath accepts the absolute path shapes the launcher hands to
// Windows: drive-absolute (C:\ws), UNC (\\server\share\ws) and their
// \\?\ long forms. Drive-relative (C:ws), root-relative (\ws), device
// (\\.\) and GLOBALROOT paths are refused: they depend on the process's
// state or escape the file-system namespace.
func checkAbsPath(what, p string) error {
	if err := checkString(p); err != nil {
		return fmt.Errorf("windows launcher: %s %q %w", what, p, err)
	}
	rest := p
	if len(p) >= 4 && p[:4] == `\\?\` {
		rest = p[4:]
		if len(rest) >= 4 && strings.EqualFold(rest[:4], `UNC\`) {
			return checkUNC(what, p, `\\`+rest[4:])
		}
		if !isDriveAbs(rest) {
			return fmt.Errorf("windows launcher: %s %s is a device or volume path, not a drive or UNC path", what, quotePath(p))
		}
		return nil
	}
	p2 := strings.ReplaceAll(p, "/", `\`)
	switch {
	case isDriveAbs(p2):
		return nil
	case strings.HasPrefix(p2, `\\.\`), strings.HasPrefix(p2, `\\?\`):
		return fmt.Errorf("windows launcher: %s %s is a device path", what, quotePath(p))
	case strings.HasPrefix(p2, `\\`):
		return checkUNC(what, p, p2)
	default:
		return fmt.Errorf("windows launcher: %s %s is not an absolute Windows path", what, quotePath(p))
	}
}

func checkUNC(what, orig, p string) error {
	parts := strings.SplitN(p[2:], `\`, 3)
	if len(parts) < 2 || parts[0] == "" || parts[1] == "" {
		return fmt.Errorf("windows launcher: %s %s is not a \\\\server\\share path", what, quotePath(orig))
	}
	return nil
}

// isDriveAbs reports whether p looks like X:\ or X:/.
func isDriveAbs(p string) bool {
	return len(p) >= 3 && isLetter(p[0]) && p[1] == ':' && (p[2] == '\\' || p[2] == '/')
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// hasSeparator reports whether a program name names a path rather than a
// command to look up: Windows takes both slashes and a drive colon.
func hasSeparator(name string) bool { return strings.ContainsAny(name, `\/:`) }

// winBase returns the last element of a Windows path.
func winBase(p string) string {
	if i := strings.LastIndexAny(p, `\/:`); i >= 0 {
		return p[i+1:]
	}
	return p
}

// winExt returns the extension of the last element, dot included.
func winExt(p string) string {
	b := winBase(p)
	if i := strings.LastIndexByte(b, '.'); i >= 0 {
		return b[i:]
	}
	return ""
}

// winJoin joins a directory and a name with one backslash.
func winJoin(dir, name string) string {
	if strings.HasSuffix(dir, `\`) || strings.HasSuffix(dir, "/") {
		return dir + name
	}
	return dir + `\` + name
}

// envValue returns the value of name in env, matched without regard to
// case as Windows does; the last entry wins.
func envValue(env []string, name string) (string, bool) {
	val, ok := "", false
	for _, kv := range env {
		k, v, found := cutEnv(kv)
		if found && strings.EqualFold(k, name) {
			val, ok = v, true
		}
	}
	return val, ok
}

// cutEnv splits NAME=value; a leading '=' belongs to the name, as in the
// hidden per-drive variables like "=C:=C:\ws".
func cutEnv(kv string) (name, value string, ok bool) {
	i := strings.IndexByte(kv[min(1, len(kv)):], '=')
	if i < 0 {
		return "", "", false
	}
	i += min(1, len(kv))
	return kv[:i], kv[i+1:], true
}

// lookPath resolves a program the way the launcher promises: a name with a
// separator is taken relative to dir; a bare name is searched only in the
// absolute directories of PATH from env, never in the working directory
// (which the command may control), trying the PATHEXT extensions.
// isFile reports whether a path is an existing regular file.
func lookPath(name, dir string, env []string, isFile func(string) bool) (string, error) {
	if err := checkString(name); err != nil {
		return "", fmt.Errorf("windows launcher: program %q %w", name, err)
	}
	exts := pathExts(env)
	if hasSeparator(name) {
		p := name
		if !isDriveAbs(strings.ReplaceAll(p, "/", `\`)) && !strings.HasPrefix(p, `\\`) && !strings.HasPrefix(p, `//`) {
			if len(p) >= 2 && p[1] == ':' || strings.HasPrefix(p, `\`) || strings.HasPrefix(p, "/") {
				return "", fmt.Errorf("windows launcher: program %s is drive- or root-relative: %w", quotePath(name), plan.ErrNotFound)
			}
			p = winJoin(dir, p)
		}
		if f, ok := findExecutable(p, exts, isFile); ok {
			return f, nil
		}
		return "", fmt.Errorf("windows launcher: program %s: %w", quotePath(name), plan.ErrNotFound)
	}
	path, _ := envValue(env, "PATH")
	for _, d := range strings.Split(path, ";") {
		d = strings.Trim(d, `"`)
		if d == "" || checkAbsPath("PATH entry", d) != nil {
			continue // relative entries would resolve against the working directory
		}
		if f, ok := findExecutable(winJoin(d, name), exts, isFile); ok {
			return f, nil
		}
	}
	return "", fmt.Errorf("windows launcher: program %q not found in PATH: %w", name, plan.ErrNotFound)
}

// findExecutable tries p as given when it already has an extension, then p
// with each PATHEXT extension, as cmd.exe does.
func findExecutable(p string, exts []string, isFile func(string) bool) (string, bool) {
	if winExt(p) != "" && isFile(p) {
		return p, true
	}
	for _, e := range exts {
		if isFile(p + e) {
			return p + e, true
		}
	}
	return "", false
}

func pathExts(env []string) []string {
	v, ok := envValue(env, "PATHEXT")
	if !ok || v == "" {
		return []string{".com", ".exe", ".bat", ".cmd"}
	}
	var exts []string
	for _, e := range strings.Split(strings.ToLower(v), ";") {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// quotePath quotes a Windows path for a message without doubling its
// backslashes, which %q would do; anything unusual falls back to %q.
func quotePath(p string) string {
	for _, r := range p {
		if r == '"' || !unicode.IsPrint(r) {
			return strconv.Quote(p)
		}
	}
	return `"` + p + `"`
}

// checkStampable refuses to label p Low-writable when that would open up
// far more than a workspace: a drive or share root, or a directory that is
// or contains one of the protected ones (the user profile, Windows, Program
// Files...). A label propagates to everything below it and stays after the
// run, so every Low-integrity process of the user (browser sandboxes
// included) could write there for good.
func checkStampable(p string, protected []string) error {
	np := normPath(p)
	if isRoot(np) {
		return fmt.Errorf("windows launcher: refusing to label %s Low-writable: it is a drive or share root", quotePath(p))
	}
	for _, d := range protected {
		nd := normPath(d)
		if nd == "" {
			continue
		}
		if nd == np || strings.HasPrefix(nd, np+`\`) {
			return fmt.Errorf("windows launcher: refusing to label %s Low-writable: it is or contains %s; use a narrower workspace", quotePath(p), quotePath(d))
		}
	}
	return nil
}

// normPath puts a path in one shape for comparison: backslashes, no \\?\
// prefix, no trailing separator, lower case (NTFS compares names without
// regard to case; its upcase table differs only in exotic letters).
func normPath(p string) string {
	p = strings.ReplaceAll(p, "/", `\`)
	if strings.HasPrefix(p, `\\?\`) {
		p = p[4:]
		if len(p) >= 4 && strings.EqualFold(p[:4], `UNC\`) {
			p = `\\` + p[4:]
		}
	}
	return strings.ToLower(strings.TrimRight(p, `\`))
}

// isRoot reports whether a normalised path is a drive root (c:) or a share
// root (\\server\share).
func isRoot(np string) bool {
	if len(np) == 2 && np[1] == ':' {
		return true
	}
	if strings.HasPrefix(np, `\\`) {
		return strings.Count(np[2:], `\`) <= 1
	}
	return false
}
