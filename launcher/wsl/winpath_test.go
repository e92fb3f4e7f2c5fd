package wsl

import (
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/aar-agent/aar-exec/plan"
)

func TestGuard(t *testing.T) {
	const ws = `C:\ws`
	tests := []struct {
		cwd, workspace string
		ok             bool
		why            string // part of the error when !ok
	}{
		// Inside.
		{`C:\ws`, ws, true, ""},
		{`C:\ws\sub`, ws, true, ""},
		{`C:\ws\sub\deeper\`, ws, true, ""},
		{`c:\ws\sub`, ws, true, ""},           // drive letter case
		{`C:\WS\Sub`, ws, true, ""},           // component case
		{`C:/ws/sub`, ws, true, ""},           // forward slashes
		{`C:\ws/sub\\x//y`, ws, true, ""},     // mixed and repeated separators
		{`C:\ws\.\sub\.`, ws, true, ""},       // "."
		{`C:\ws\sub\..`, ws, true, ""},        // ".." back to the root
		{`C:\ws\a\..\b\..\sub`, ws, true, ""}, // ".." inside
		{`sub`, ws, true, ""},                 // relative to the workspace
		{`.\sub\..`, ws, true, ""},
		{`C:\ws\sub`, `c:/WS/`, true, ""}, // workspace spelt differently
		{`C:\ws\ünï`, ws, true, ""},
		{`D:\`, `d:\`, true, ""},     // the workspace is a whole drive
		{`C:\ws\a..b`, ws, true, ""}, // dots inside a name are fine
		{`C:\ws\.git`, ws, true, ""},

		// Outside.
		{`C:\`, ws, false, "outside"},
		{`C:\other`, ws, false, "outside"},
		{`C:\ws2`, ws, false, "outside"}, // a prefix, not a parent
		{`C:\ws-x\sub`, ws, false, "outside"},
		{`D:\ws`, ws, false, "outside"},
		{`C:\ws\..`, ws, false, "outside"},
		{`C:\ws\..\x`, ws, false, "outside"},
		{`C:\ws\sub\..\..\x`, ws, false, "outside"},
		{`C:\ws\..\..\..\..\ws2`, ws, false, "outside"}, // ".." clamps at the root
		{`..`, ws, false, "outside"},
		{`sub\..\..\x`, ws, false, "outside"},
		{`C:\wſ`, `C:\ws`, false, "outside"},                     // long s: no Unicode folding
		{"C:\\wor\u212Aspace", `C:\workspace`, false, "outside"}, // Kelvin sign is not k on NTFS

		// Not fully qualified.
		{`C:ws`, ws, false, "drive-relative"},
		{`C:`, ws, false, "drive-relative"},
		{`\ws\sub`, ws, false, "root-relative"},
		{`/ws/sub`, ws, false, "root-relative"},

		// Device, distro and network paths.
		{`\\?\C:\ws\sub`, ws, false, "device path"},
		{`\\?\c:\ws\sub\..\..\x`, ws, false, "device path"},
		{`\\.\C:\ws`, ws, false, "device path"},
		{`//?/C:/ws`, ws, false, "device path"},
		{`\\?\GLOBALROOT\Device\HarddiskVolume1\ws`, ws, false, "device path"},
		{`\\?\Volume{01234567-89ab-cdef-0123-456789abcdef}\ws`, ws, false, "device path"},
		{`\\?\UNC\server\share\ws`, ws, false, "device path"},
		{`\??\C:\ws`, ws, false, "NT object path"},
		{`\\wsl$\aar-sandbox\ws`, ws, false, "WSL distro"},
		{`\\WSL.LOCALHOST\Ubuntu\home`, ws, false, "WSL distro"},
		{`\\server\share\ws`, ws, false, "network"},
		{`//server/share/ws`, ws, false, "network"},
		{`\/server\share`, ws, false, "network"},

		// Names Win32 rewrites or that are not files.
		{`C:\ws\sub.`, ws, false, "dot or space"},
		{`C:\ws\sub `, ws, false, "dot or space"},
		{`C:\ws\sub. \x`, ws, false, "dot or space"},
		{`C:\ws\...`, ws, false, "dot or space"},
		{`C:\ws\sub:stream`, ws, false, "data stream"},
		{`C:\ws::$INDEX_ALLOCATION`, ws, false, "data stream"},
		{`C:\ws\dir:$I30:$INDEX_ALLOCATION`, ws, false, "data stream"},
		{`C:\ws\NUL`, ws, false, "DOS device"},
		{`C:\ws\con`, ws, false, "DOS device"},
		{`C:\ws\aux.txt`, ws, false, "DOS device"},
		{`C:\ws\COM1`, ws, false, "DOS device"},
		{`C:\ws\lpt9.log`, ws, false, "DOS device"},
		{`C:\ws\COM¹`, ws, false, "DOS device"},
		{`C:\ws\CONIN$`, ws, false, "DOS device"},
		{`C:\ws\nul .txt`, ws, false, "DOS device"},
		{`C:\ws\a*b`, ws, false, "cannot"},
		{`C:\ws\a?b`, ws, false, "cannot"},
		{`C:\ws\a"b`, ws, false, "cannot"},
		{`C:\ws\a|b`, ws, false, "cannot"},
		{`C:\ws\a<b>`, ws, false, "cannot"},
		{"C:\\ws\\a\tb", ws, false, "control"},
		{"C:\\ws\\a\nb", ws, false, "control"},

		// Malformed input.
		{"", ws, false, "empty"},
		{"C:\\ws\\a\x00b", ws, false, "NUL"},
		{"C:\\ws\\\xff", ws, false, "UTF-8"},
		{`C:\ws\` + strings.Repeat("a", 300), ws, false, "longer"},
		{`C:\ws\` + strings.Repeat("é", 254), ws, false, "longer"},
		{strings.Repeat("b", 30), `C:\` + strings.Repeat("a", 240), false, "characters long"},
		{`C:\ws`, "", false, "workspace"},
		{`C:\ws`, `ws`, false, "workspace"},
		{`C:\ws`, `\\server\share`, false, "workspace"},
		{`C:\ws`, `C:\ws.`, false, "workspace"},
		{`1:\ws`, ws, false, "data stream"}, // not a drive letter
	}
	// The string guard is checked on every OS; Guard itself adds the
	// filesystem step on Windows, where these paths do not exist.
	for _, tt := range tests {
		_, _, err := guardString(tt.cwd, tt.workspace)
		if runtime.GOOS != "windows" {
			if gerr := Guard(tt.cwd, tt.workspace); (gerr == nil) != (err == nil) {
				t.Errorf("Guard(%q, %q) = %v but the string guard says %v", tt.cwd, tt.workspace, gerr, err)
			}
		}
		if tt.ok {
			if err != nil {
				t.Errorf("Guard(%q, %q) = %v, want nil", tt.cwd, tt.workspace, err)
			}
			continue
		}
		if !errors.Is(err, plan.ErrDenied) {
			t.Errorf("Guard(%q, %q) = %v, want an error wrapping ErrDenied", tt.cwd, tt.workspace, err)
			continue
		}
		if !strings.Contains(err.Error(), tt.why) {
			t.Errorf("Guard(%q, %q) = %q, want it to mention %q", tt.cwd, tt.workspace, err, tt.why)
		}
	}
}

func TestTranslate(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{`C:\`, `/mnt/c/`},
		{`C:\ws`, `/mnt/c/ws`},
		{`c:\WS\Sub`, `/mnt/c/WS/Sub`}, // component case is kept
		{`D:/a//b/./c/../d/`, `/mnt/d/a/b/d`},
		{`C:\ws\with space\$dollar`, `/mnt/c/ws/with space/$dollar`},
		{`C:\ws\ünï ☃`, `/mnt/c/ws/ünï ☃`},
		{`Z:\..\..`, `/mnt/z/`},
	}
	for _, tt := range tests {
		got, err := Translate(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Translate(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", `ws`, `\ws`, `C:ws`, `\\?\C:\ws`, `\\wsl$\d\x`, `\\srv\share`, `C:\ws\a.`, `C:\a:b`, `C:\NUL`} {
		if got, err := Translate(bad); err == nil {
			t.Errorf("Translate(%q) = %q, want an error", bad, got)
		}
	}
}

// FuzzGuard checks that the guard never panics and that whatever it lets
// through translates to a path below the workspace's translation.
func FuzzGuard(f *testing.F) {
	for _, s := range []string{`C:\ws\sub`, `..\x`, `\\?\C:\ws`, `C:\ws\a.`, `sub/../..`, "C:\\ws\\\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cwd string) {
		dir, err := guard(cwd, `C:\ws`)
		if err != nil {
			return
		}
		if got := translate(dir, "/mnt/"); got != "/mnt/c/ws" && !strings.HasPrefix(got, "/mnt/c/ws/") {
			t.Fatalf("Guard let %q through to %q", cwd, got)
		}
	})
}

func BenchmarkGuard(b *testing.B) {
	for b.Loop() {
		if _, _, err := guardString(`C:\Users\dev\src\project\sub\dir`, `c:/users/dev/src/project`); err != nil {
			b.Fatal(err)
		}
	}
}
