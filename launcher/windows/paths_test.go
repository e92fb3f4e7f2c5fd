package windows

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/aar-agent/aar-exec/plan"
)

func TestCheckAbsPath(t *testing.T) {
	tests := []struct {
		path string
		ok   bool
	}{
		{`C:\ws`, true},
		{`c:/ws/sub`, true},
		{`C:\`, true},
		{`\\server\share\ws`, true},
		{`\\server\share`, true},
		{`//server/share/ws`, true},
		{`\\?\C:\ws`, true},
		{`\\?\UNC\server\share\ws`, true},
		{`C:ws`, false},
		{`\ws`, false},
		{`ws`, false},
		{``, false},
		{`\\server`, false},
		{`\\server\`, false},
		{`\\.\C:\ws`, false},
		{`\\.\pipe\x`, false},
		{`\\?\GLOBALROOT\Device\HarddiskVolume1`, false},
		{`\\?\Volume{0000}\`, false},
		{"C:\\ws\x00", false},
		{"C:\\w\xffs", false},
	}
	for _, tt := range tests {
		err := checkAbsPath("workspace", tt.path)
		if (err == nil) != tt.ok {
			t.Errorf("checkAbsPath(%q) = %v, want ok=%v", tt.path, err, tt.ok)
		}
	}
}

func TestLookPath(t *testing.T) {
	files := map[string]bool{
		`C:\Windows\System32\cmd.exe`: true,
		`C:\Go\bin\go.exe`:            true,
		`C:\Go\bin\gofmt`:             true, // no extension: not runnable by name
		`C:\ws\cmd.exe`:               true, // planted in the workspace
		`C:\ws\tools\run.bat`:         true,
		`C:\tools\x.com`:              true,
		`C:\tools\x.exe`:              true,
		`C:\tools\y.PY`:               true,
	}
	// Like NTFS: case-insensitive, either slash, "." elements ignored.
	norm := func(p string) string {
		return strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(p, "/", `\`), `\.\`, `\`))
	}
	lower := map[string]bool{}
	for f := range files {
		lower[norm(f)] = true
	}
	isFile := func(p string) bool { return lower[norm(p)] }
	path := `PATH=C:\Windows\System32;relative\bin;;"C:\Go\bin";C:\tools\`
	tests := []struct {
		name string
		env  []string
		want string
		err  error
	}{
		{"cmd", []string{path}, `C:\Windows\System32\cmd.exe`, nil},
		{"cmd.exe", []string{path}, `C:\Windows\System32\cmd.exe`, nil},
		{"go", []string{"Path=" + path[5:]}, `C:\Go\bin\go.exe`, nil},
		{"gofmt", []string{path}, "", plan.ErrNotFound},
		{"x", []string{path}, `C:\tools\x.com`, nil},
		{"x", []string{path, "PATHEXT=.EXE;.COM"}, `C:\tools\x.exe`, nil},
		{"y", []string{path, "PATHEXT=.py"}, `C:\tools\y.py`, nil},
		{"nope", []string{path}, "", plan.ErrNotFound},
		{"cmd", nil, "", plan.ErrNotFound}, // the working directory is never searched
		{`.\cmd`, []string{path}, `C:\ws\.\cmd.exe`, nil},
		{`tools\run`, nil, `C:\ws\tools\run.bat`, nil},
		{`C:\tools\x.exe`, nil, `C:\tools\x.exe`, nil},
		{`C:/tools/x`, nil, `C:/tools/x.com`, nil},
		{`C:x.exe`, nil, "", plan.ErrNotFound},
		{`\tools\x.exe`, nil, "", plan.ErrNotFound},
	}
	for _, tt := range tests {
		got, err := lookPath(tt.name, `C:\ws`, tt.env, isFile)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("lookPath(%q, %q) = %q, %v; want error %v", tt.name, tt.env, got, err, tt.err)
			}
			continue
		}
		// PATHEXT is lower-cased, so compare without regard to case.
		if err != nil || !strings.EqualFold(got, tt.want) {
			t.Errorf("lookPath(%q, %q) = %q, %v; want %q", tt.name, tt.env, got, err, tt.want)
		}
	}
}

func TestEnvBlock(t *testing.T) {
	dec := func(b []uint16) []string {
		var out []string
		start := 0
		for i, c := range b {
			if c == 0 {
				if i == start {
					break
				}
				out = append(out, string(utf16.Decode(b[start:i])))
				start = i + 1
			}
		}
		return out
	}
	tests := []struct {
		env  []string
		want []string
		err  string
	}{
		{nil, nil, ""},
		{[]string{"b=2", "A=1"}, []string{"A=1", "b=2"}, ""},
		{[]string{"Path=x", "PATH=y"}, []string{"PATH=y"}, ""},
		{[]string{"=C:=C:\\ws", "X=é"}, []string{"=C:=C:\\ws", "X=é"}, ""},
		{[]string{"X="}, []string{"X="}, ""},
		{[]string{"NOEQUALS"}, nil, "not NAME=value"},
		{[]string{"=x"}, nil, "not NAME=value"},
		{[]string{"X=a\x00b"}, nil, "NUL byte"},
		{[]string{"X=\xff"}, nil, "UTF-8"},
		{[]string{"X=" + strings.Repeat("v", maxEnvBlock)}, nil, "over"},
	}
	for _, tt := range tests {
		b, err := envBlock(tt.env)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("envBlock(%.30q) error = %v, want %q", tt.env, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("envBlock(%q): %v", tt.env, err)
			continue
		}
		if len(b) < 2 || b[len(b)-1] != 0 || b[len(b)-2] != 0 {
			t.Errorf("envBlock(%q) = %v, does not end in two NULs", tt.env, b)
		}
		if got := dec(b); !slices.Equal(got, tt.want) {
			t.Errorf("envBlock(%q) holds %q, want %q", tt.env, got, tt.want)
		}
	}
}

func BenchmarkEnvBlock(b *testing.B) {
	env := make([]string, 60)
	for i := range env {
		env[i] = strings.Repeat(string(rune('A'+i%26)), 8) + "=" + strings.Repeat("value;", 10)
	}
	for b.Loop() {
		if _, err := envBlock(env); err != nil {
			b.Fatal(err)
		}
	}
}

func TestQuotePath(t *testing.T) {
	for in, want := range map[string]string{
		`C:\ws`:      `"C:\ws"`,
		`C:\a b\é`:   `"C:\a b\é"`,
		`C:\a"b`:     `"C:\\a\"b"`,
		"C:\\a\x00b": `"C:\\a\x00b"`,
		"C:\\a\nb":   `"C:\\a\nb"`,
	} {
		if got := quotePath(in); got != want {
			t.Errorf("quotePath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWithTemp(t *testing.T) {
	got := withTemp([]string{"Path=x", "temp=C:\\old", "TMP=C:\\old", "A=1"}, `C:\t\aar-exec-1`)
	want := []string{"Path=x", "A=1", `TEMP=C:\t\aar-exec-1`, `TMP=C:\t\aar-exec-1`}
	if !slices.Equal(got, want) {
		t.Errorf("withTemp = %q, want %q", got, want)
	}
}

func TestCheckStampable(t *testing.T) {
	protected := []string{`C:\Users\me`, `C:\Windows`, `C:\Program Files`, ""}
	tests := []struct {
		path string
		ok   bool
	}{
		{`C:\Users\me\src\proj`, true},
		{`D:\work`, true},
		{`\\server\share\ws`, true},
		{`C:\Users\me2`, true}, // a sibling whose name shares a prefix
		{`C:\`, false},
		{`c:/`, false},
		{`D:`, false},
		{`\\server\share`, false},
		{`\\server\share\`, false},
		{`\\?\UNC\server\share`, false},
		{`C:\Users\me`, false},
		{`c:/users/ME/`, false},
		{`C:\Users`, false},
		{`\\?\C:\Users`, false},
		{`C:\Windows`, false},
		{`C:\Program Files`, false},
	}
	for _, tt := range tests {
		err := checkStampable(tt.path, protected)
		if (err == nil) != tt.ok {
			t.Errorf("checkStampable(%q) = %v, want ok=%v", tt.path, err, tt.ok)
		}
	}
	p := plan.Plan{Workspace: `C:\Users\me`}
	if _, err := newSetup(&p, Options{UseLowIntegrity: true}, protected); err == nil {
		t.Error("newSetup accepted the user profile as a workspace to label")
	}
	if _, err := newSetup(&p, Options{}, protected); err != nil {
		t.Errorf("newSetup without Low integrity labels nothing, so it must accept: %v", err)
	}
}
