package wsl

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aar-agent/aar-exec/plan"
)

// maxPath is the longest path, in UTF-16 code units and without the
// terminating NUL, that Win32 accepts as a current directory without the
// \\?\ prefix (MAX_PATH minus one).
const maxPath = 259

// A winPath is a fully qualified, cleaned Windows path: a drive letter and
// the components below its root. It is built only by parseWinPath, so every
// component has passed the checks there.
type winPath struct {
	drive byte     // 'A'..'Z'
	parts []string // no "", ".", ".." or otherwise suspicious components
}

// String returns p in Windows form, C:\a\b.
func (p winPath) String() string {
	return string(p.drive) + `:\` + strings.Join(p.parts, `\`)
}

// isSep reports whether c separates components in a Win32 path.
func isSep(c byte) bool { return c == '\\' || c == '/' }

// parseWinPath parses s with Windows semantics on every build OS, because
// path/filepath follows the build OS and would make a Linux-run test pass
// vacuously. Relative paths are resolved against base when base is not
// nil; drive-relative (C:x) and root-relative (\x) paths are always
// rejected, because they depend on per-process state aar-exec cannot see.
// The error says what is wrong without a package prefix.
func parseWinPath(s string, base *winPath) (winPath, error) {
	switch {
	case s == "":
		return winPath{}, errors.New("empty path")
	case strings.IndexByte(s, 0) >= 0:
		return winPath{}, errors.New("path contains a NUL byte")
	case !utf8.ValidString(s):
		return winPath{}, errors.New("path is not valid UTF-8")
	case len(s) > 4*maxPath || utf16Len(s) > maxPath:
		return winPath{}, fmt.Errorf("path is longer than %d characters", maxPath)
	}
	if len(s) >= 2 && isSep(s[0]) && isSep(s[1]) {
		return winPath{}, classifyDoubleSep(s)
	}
	if strings.HasPrefix(s, `\??\`) {
		return winPath{}, errors.New(`NT object path (\??\) is not accepted`)
	}
	var p winPath
	rest := s
	switch {
	case len(s) >= 2 && s[1] == ':' && isASCIILetter(s[0]):
		if len(s) == 2 || !isSep(s[2]) {
			return winPath{}, errors.New("drive-relative path (no separator after the drive) is not accepted")
		}
		p.drive = upperASCII(s[0])
		rest = s[3:]
	case isSep(s[0]):
		return winPath{}, errors.New("root-relative path (no drive letter) is not accepted")
	case base == nil:
		return winPath{}, errors.New("relative path is not accepted here")
	default:
		p.drive = base.drive
		p.parts = append(p.parts, base.parts...)
	}
	for comp := range strings.FieldsFuncSeq(rest, func(r rune) bool { return r == '\\' || r == '/' }) {
		if err := checkComponent(comp); err != nil {
			return winPath{}, err
		}
		switch comp {
		case ".":
		case "..":
			// Win32 clamps ".." at the root instead of failing.
			if len(p.parts) > 0 {
				p.parts = p.parts[:len(p.parts)-1]
			}
		default:
			p.parts = append(p.parts, comp)
		}
	}
	return p, nil
}

// classifyDoubleSep explains why a path starting with two separators is
// refused: all of them are device, distro or network paths that either skip
// Win32 normalization or have no /mnt translation.
func classifyDoubleSep(s string) error {
	norm := strings.ReplaceAll(s, "/", `\`)
	lower := strings.ToLower(norm)
	switch {
	case strings.HasPrefix(lower, `\\?\`), strings.HasPrefix(lower, `\\.\`):
		return fmt.Errorf(`device path prefix %s is not accepted`, norm[:4])
	case strings.HasPrefix(lower, `\\wsl$`), strings.HasPrefix(lower, `\\wsl.localhost`):
		return errors.New(`path inside a WSL distro (\\wsl$, \\wsl.localhost) has no /mnt translation`)
	default:
		return errors.New(`network (UNC) path is not accepted`)
	}
}

// checkComponent rejects a path component that Win32 would silently rewrite
// (trailing dots and spaces), that names an NTFS stream or a DOS device, or
// that no Windows file name can contain.
func checkComponent(c string) error {
	if c == "." || c == ".." {
		return nil
	}
	for i := 0; i < len(c); i++ {
		switch b := c[i]; {
		case b < 0x20:
			return fmt.Errorf("component %q contains a control character", c)
		case b == ':':
			return fmt.Errorf("component %q names an alternate data stream", c)
		case strings.IndexByte(`<>"|?*`, b) >= 0:
			return fmt.Errorf("component %q contains %q, which Windows file names cannot", c, b)
		}
	}
	if last := c[len(c)-1]; last == '.' || last == ' ' {
		return fmt.Errorf("component %q ends in a dot or space, which Win32 strips", c)
	}
	if isDOSDevice(c) {
		return fmt.Errorf("component %q names a DOS device", c)
	}
	return nil
}

// isDOSDevice reports whether Win32 maps the component to a device whatever
// its directory: CON, NUL, COM1, LPT¹ and so on, with any extension.
func isDOSDevice(c string) bool {
	base, _, _ := strings.Cut(c, ".")
	base = strings.TrimRight(base, " ")
	switch strings.ToUpper(base) {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 {
		return false
	}
	switch strings.ToUpper(base[:3]) {
	case "COM", "LPT":
		switch d := base[3:]; d {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}

// within reports whether p is root or below it. Components compare
// case-insensitively for ASCII only: NTFS's upcase table and Unicode case
// folding disagree on letters such as the Kelvin sign, so a wider fold could
// call a directory outside the workspace inside it. The price is a denial
// for a non-ASCII name spelled in another case, which the Windows
// canonicalization step removes for paths that exist.
func (p winPath) within(root winPath) bool {
	if p.drive != root.drive || len(p.parts) < len(root.parts) {
		return false
	}
	for i, r := range root.parts {
		if !equalFoldASCII(p.parts[i], r) {
			return false
		}
	}
	return true
}

func equalFoldASCII(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c - 'A' + 'a'
	}
	return c
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Guard reports whether the working directory cwd, a Windows path, lies
// inside workspace, returning nil if it does and an error wrapping
// [plan.ErrDenied] if it does not or if either path is malformed.
//
// Both paths are parsed with Windows semantics whatever the build OS; cwd
// may be relative to workspace. On Windows both are then resolved through
// the filesystem (junctions, symlinks, 8.3 names) and checked again, so
// they must exist there; elsewhere that step is skipped and the string
// check stands alone.
func Guard(cwd, workspace string) error {
	_, err := guard(cwd, workspace)
	return err
}

// guardString is the part of the guard that needs no filesystem: it
// parses both paths and checks that cwd lies inside workspace.
func guardString(cwd, workspace string) (dir, ws winPath, err error) {
	ws, err = parseWinPath(workspace, nil)
	if err != nil {
		return dir, ws, fmt.Errorf("wsl: workspace %q: %v: %w", workspace, err, plan.ErrDenied)
	}
	dir, err = parseWinPath(cwd, &ws)
	if err != nil {
		return dir, ws, fmt.Errorf("wsl: working directory %q: %v: %w", cwd, err, plan.ErrDenied)
	}
	if !dir.within(ws) {
		return dir, ws, fmt.Errorf("wsl: working directory %q is outside the workspace %q: %w", cwd, workspace, plan.ErrDenied)
	}
	// A relative cwd is checked for length only once joined.
	if n := utf16Len(dir.String()); n > maxPath {
		return dir, ws, fmt.Errorf("wsl: working directory %q is %d characters long inside the workspace, over %d: %w",
			cwd, n, maxPath, plan.ErrDenied)
	}
	return dir, ws, nil
}

// guard is Guard returning the cleaned cwd, so that Run translates exactly
// the path that was checked.
func guard(cwd, workspace string) (winPath, error) {
	dir, ws, err := guardString(cwd, workspace)
	if err != nil {
		return winPath{}, err
	}
	realWS, err := canonicalize(ws)
	if err != nil {
		return winPath{}, fmt.Errorf("wsl: workspace %q: %v: %w", workspace, err, plan.ErrDenied)
	}
	realDir, err := canonicalize(dir)
	if err != nil {
		return winPath{}, fmt.Errorf("wsl: working directory %q: %v: %w", cwd, err, plan.ErrDenied)
	}
	if !realDir.within(realWS) {
		return winPath{}, fmt.Errorf("wsl: working directory %q resolves to %q, outside the workspace %q (%q): %w",
			cwd, realDir, workspace, realWS, plan.ErrDenied)
	}
	// Spell the workspace part as the workspace does: the cwd may differ
	// in case, which NTFS ignores but a case-sensitive DrvFs directory
	// would not.
	realDir.parts = append(slices.Clone(realWS.parts), realDir.parts[len(realWS.parts):]...)
	return realDir, nil
}

// Translate turns a fully qualified Windows path into its path under WSL's
// default automount root: C:\x\y becomes /mnt/c/x/y. The drive letter is
// lowercased and the components keep their case. It rejects the same
// shapes as [Guard], since none of them has a faithful /mnt translation.
func Translate(winPath string) (string, error) {
	p, err := parseWinPath(winPath, nil)
	if err != nil {
		return "", fmt.Errorf("wsl: translate %q: %v", winPath, err)
	}
	return translate(p, defaultMountRoot), nil
}

// defaultMountRoot is WSL's [automount] root when wsl.conf does not set one.
const defaultMountRoot = "/mnt/"

// translate maps p below mountRoot, which ends in a slash.
func translate(p winPath, mountRoot string) string {
	return mountRoot + string(lowerASCII(p.drive)) + "/" + strings.Join(p.parts, "/")
}
