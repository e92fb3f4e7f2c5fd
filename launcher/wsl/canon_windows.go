//go:build windows

package wsl

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/sys/windows"
)

// Flags of GetFinalPathNameByHandleW, absent from x/sys.
const (
	fileNameNormalized = 0x0
	volumeNameDOS      = 0x0
)

// canonicalize asks the filesystem where p really is, resolving junctions,
// symbolic links, mount points and 8.3 short names, so that a link inside
// the workspace cannot point the guard's string check at the wrong place.
// The path must exist. The result is parsed again, so a target that is a
// network share or a device is refused like any other such path.
func canonicalize(p winPath) (winPath, error) {
	name, err := windows.UTF16PtrFromString(p.String())
	if err != nil {
		return winPath{}, err
	}
	// Zero access rights are enough to query the name; backup semantics
	// lets CreateFile open a directory.
	h, err := windows.CreateFile(name, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return winPath{}, fmt.Errorf("resolve %s: %v", p, err)
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, 512)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized|volumeNameDOS)
		if err != nil {
			return winPath{}, fmt.Errorf("resolve %s: %v", p, err)
		}
		if int(n) < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]uint16, n+1)
	}
	final := windows.UTF16ToString(buf)
	switch {
	case strings.HasPrefix(final, `\\?\UNC\`):
		return winPath{}, errors.New("resolves to a network (UNC) path")
	case strings.HasPrefix(final, `\\?\`):
		// The only prefix stripped is the one this call itself adds.
		final = final[len(`\\?\`):]
	}
	real, err := parseWinPath(final, nil)
	if err != nil {
		return winPath{}, fmt.Errorf("resolves to %q: %v", final, err)
	}
	return real, nil
}
