package wsl

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"github.com/aar-agent/aar-exec/internal/testdir"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeProfile writes p as JSON into a temp dir and returns its path.
func writeProfile(t *testing.T, p Profile) string {
	t.Helper()
	data, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(testdir.New(t), "profile.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// writeTarball writes a stand-in rootfs and returns its path and SHA-256.
func writeTarball(t *testing.T) (string, string) {
	t.Helper()
	path := filepath.Join(testdir.New(t), "rootfs.tar.gz")
	data := []byte("not really a tarball")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return path, hex.EncodeToString(sum[:])
}

func distrosIn(t *testing.T, w *fakeWorld) []string {
	t.Helper()
	var st struct{ Distros map[string]any }
	data, err := os.ReadFile(w.state)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	var names []string
	for n := range st.Distros {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func TestSetup(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t)
	w.setenv(t)
	tarball, _ := writeTarball(t)
	prof := writeProfile(t, Profile{
		Rootfs:                tarball,
		PreInstallCommands:    []string{"echo pre-one", "echo pre-two"},
		PackageInstallCommand: "printf '[%s]' {packages}",
		Packages:              []string{"git", "python3"},
	})
	cfg := Config{Exe: fakeWSL(t), Profile: prof}
	dir := filepath.Join(testdir.New(t), "install")
	var out bytes.Buffer
	opt := SetupOptions{InstallDir: dir, Stdout: &out}
	if err := Setup(context.Background(), cfg, opt); err != nil {
		t.Fatalf("Setup: %v", err)
	}
	if got := distrosIn(t, w); !slices.Equal(got, []string{DefaultDistro}) {
		t.Errorf("distros after setup: %q", got)
	}
	for _, want := range []string{"pre-one", "pre-two", "[git][python3]"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("setup output %q lacks %q", out.String(), want)
		}
	}
	calls := w.calls(t)
	if len(calls) != 5 {
		t.Fatalf("wsl.exe calls: %q", calls)
	}
	if want := []string{"--import", DefaultDistro, dir, tarball, "--version", "2"}; !slices.Equal(calls[1], want) {
		t.Errorf("import call %q, want %q", calls[1], want)
	}
	if want := []string{"-d", DefaultDistro, "--exec", "sh", "-c", "printf '[%s]' 'git' 'python3'"}; !slices.Equal(calls[4], want) {
		t.Errorf("install call %q, want %q", calls[4], want)
	}

	// Again: refused without Force, recreated with it.
	if err := Setup(context.Background(), cfg, opt); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Errorf("second Setup: %v, want already exists", err)
	}
	opt.Force, opt.Packages = true, []string{"make"}
	out.Reset()
	if err := Setup(context.Background(), cfg, opt); err != nil {
		t.Fatalf("Setup --force: %v", err)
	}
	if !strings.Contains(out.String(), "[make]") || strings.Contains(out.String(), "[git]") {
		t.Errorf("--packages did not replace the profile's: %q", out.String())
	}
	if calls := w.calls(t); !slices.ContainsFunc(calls, func(c []string) bool {
		return slices.Equal(c, []string{"--unregister", DefaultDistro})
	}) {
		t.Errorf("no unregister call in %q", calls)
	}
}

func TestSetupFailureLeavesNoDistro(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t)
	w.setenv(t)
	tarball, _ := writeTarball(t)
	prof := writeProfile(t, Profile{Rootfs: tarball, PreInstallCommands: []string{
		"i=0; while [ $i -lt 100 ]; do echo noise line $i >&2; i=$((i+1)); done; echo broken >&2; exit 3"}})
	err := Setup(context.Background(), Config{Exe: fakeWSL(t), Profile: prof}, SetupOptions{InstallDir: testdir.New(t), Distro: "d1"})
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "broken") {
		t.Fatalf("Setup: %v, want the failing step", err)
	}
	if got := distrosIn(t, w); len(got) != 0 {
		t.Errorf("half-built distro left behind: %q", got)
	}
}

func TestSetupRefusesBadInput(t *testing.T) {
	w := newFakeWorld(t)
	w.setenv(t)
	tarball, sum := writeTarball(t)
	t.Setenv("LOCALAPPDATA", "")
	tests := []struct {
		name string
		prof Profile
		opt  SetupOptions
		want string
	}{
		{"no rootfs", Profile{}, SetupOptions{InstallDir: testdir.New(t)}, "init-profiles"},
		{"bad package", Profile{Rootfs: tarball, PackageInstallCommand: "x {packages}"},
			SetupOptions{InstallDir: testdir.New(t), Packages: []string{"a;rm -rf /"}}, "contains"},
		{"option package", Profile{Rootfs: tarball, PackageInstallCommand: "x {packages}"},
			SetupOptions{InstallDir: testdir.New(t), Packages: []string{"--force"}}, "starts with '-'"},
		{"bad distro", Profile{Rootfs: tarball}, SetupOptions{InstallDir: testdir.New(t), Distro: "a b"}, "distro name"},
		{"checksum", Profile{Rootfs: tarball, RootfsSHA256: strings.Repeat("0", 64)}, SetupOptions{InstallDir: testdir.New(t)}, "SHA-256"},
		{"no install dir", Profile{Rootfs: tarball, RootfsSHA256: sum}, SetupOptions{}, "LOCALAPPDATA"},
		{"missing tarball", Profile{Rootfs: tarball + ".gone"}, SetupOptions{InstallDir: testdir.New(t)}, "rootfs"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Setup(context.Background(), Config{Exe: fakeWSL(t), Profile: writeProfile(t, tt.prof)}, tt.opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Setup: %v, want an error mentioning %q", err, tt.want)
			}
			if got := distrosIn(t, w); len(got) != 0 {
				t.Errorf("distro created: %q", got)
			}
		})
	}
}

func TestSetupDownloads(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t)
	w.setenv(t)
	tarball, sum := writeTarball(t)
	const url = "https://example.invalid/rootfs.tar.gz"
	var fetched []string
	download := func(_ context.Context, u, dest string) error {
		fetched = append(fetched, u)
		data, err := os.ReadFile(tarball)
		if err != nil {
			return err
		}
		return os.WriteFile(dest, data, 0o600)
	}
	t.Setenv("LOCALAPPDATA", testdir.New(t))
	prof := writeProfile(t, Profile{RootfsURL: url, RootfsSHA256: sum})
	if err := Setup(context.Background(), Config{Exe: fakeWSL(t), Profile: prof}, SetupOptions{Download: download}); err != nil {
		t.Fatalf("Setup: %v", err)
	}
	dir := filepath.Join(os.Getenv("LOCALAPPDATA"), "aar", "wsl-distros", DefaultDistro)
	if !slices.Equal(fetched, []string{url}) {
		t.Errorf("fetched %q", fetched)
	}
	if _, err := os.Stat(filepath.Join(dir, "ext4.vhdx")); err != nil {
		t.Errorf("not imported into the default install dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "rootfs.download")); !os.IsNotExist(err) {
		t.Errorf("downloaded tarball left behind: %v", err)
	}
}

func TestStatus(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro)
	w.setenv(t)
	prof := writeProfile(t, Profile{VersionCommands: map[string]string{
		"fake":    "echo 'fake 1.2.3'; echo second line",
		"missing": "no-such-tool-aar --version",
	}})
	rep, err := Status(context.Background(), Config{Exe: fakeWSL(t), Profile: prof})
	if err != nil {
		t.Fatalf("Status: %v", err)
	}
	if !rep.Exists || rep.Distro != DefaultDistro || rep.Kernel == "" || !strings.HasSuffix(rep.Shell, "/sh") {
		t.Errorf("report %+v", rep)
	}
	if want := map[string]string{"fake": "fake 1.2.3", "missing": ""}; !mapsEqual(rep.Versions, want) {
		t.Errorf("versions %q, want %q", rep.Versions, want)
	}
	rep, err = Status(context.Background(), Config{Exe: fakeWSL(t), Distro: "absent"})
	if err != nil || rep.Exists {
		t.Errorf("Status of an absent distro: %+v, %v", rep, err)
	}
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestReset(t *testing.T) {
	requireUnixShell(t)
	w := newFakeWorld(t, DefaultDistro, "keep")
	w.setenv(t)
	tarball, _ := writeTarball(t)
	prof := writeProfile(t, Profile{Rootfs: tarball})
	if err := Reset(context.Background(), Config{Exe: fakeWSL(t), Profile: prof}, SetupOptions{InstallDir: testdir.New(t)}); err != nil {
		t.Fatalf("Reset: %v", err)
	}
	calls := w.calls(t)
	i := slices.IndexFunc(calls, func(c []string) bool { return c[0] == "--unregister" })
	j := slices.IndexFunc(calls, func(c []string) bool { return c[0] == "--import" })
	if i < 0 || j < i {
		t.Errorf("want unregister then import, got %q", calls)
	}
	if got := distrosIn(t, w); !slices.Equal(got, []string{DefaultDistro, "keep"}) {
		t.Errorf("distros after reset: %q", got)
	}

	// A rootfs that fails its checksum must not cost the user the
	// existing distro.
	bad := writeProfile(t, Profile{Rootfs: tarball, RootfsSHA256: strings.Repeat("a", 64)})
	err := Reset(context.Background(), Config{Exe: fakeWSL(t), Profile: bad}, SetupOptions{InstallDir: testdir.New(t)})
	if err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Fatalf("Reset with a bad rootfs: %v", err)
	}
	if got := distrosIn(t, w); !slices.Equal(got, []string{DefaultDistro, "keep"}) {
		t.Errorf("distros after a failed reset: %q", got)
	}
}

func TestProbe(t *testing.T) {
	w := newFakeWorld(t, DefaultDistro)
	w.setenv(t)
	tests := []struct {
		name        string
		cfg         Config
		env         string
		wsl, exists bool
		problem     string
	}{
		{"ready", Config{Exe: fakeWSL(t)}, "", true, true, ""},
		{"no distro", Config{Exe: fakeWSL(t), Distro: "other"}, "", true, false, "aar-exec wsl setup"},
		{"no wsl.exe", Config{Exe: "no-such-wsl.exe"}, "", false, false, "wsl --install"},
		{"broken wsl", Config{Exe: fakeWSL(t)}, "1", false, false, "instance has terminated"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("FAKEWSL_FAIL", tt.env)
			rep := Probe(context.Background(), tt.cfg)
			if rep.WSL != tt.wsl || rep.DistroExists != tt.exists || !strings.Contains(rep.Problem, tt.problem) ||
				(tt.problem == "") != (rep.Problem == "") {
				t.Errorf("Probe = %+v", rep)
			}
		})
	}
}

func TestInitProfiles(t *testing.T) {
	dir := filepath.Join(testdir.New(t), "profiles")
	paths, err := InitProfiles(dir)
	if err != nil {
		t.Fatalf("InitProfiles: %v", err)
	}
	if want := []string{filepath.Join(dir, "alpine.json"), filepath.Join(dir, "ubuntu.json")}; !slices.Equal(paths, want) {
		t.Errorf("paths %q, want %q", paths, want)
	}
	for _, p := range paths {
		prof, err := LoadProfile(p)
		if err != nil || prof.RootfsURL == "" || len(prof.Packages) == 0 {
			t.Errorf("LoadProfile(%s) = %+v, %v", p, prof, err)
		}
	}
	if err := os.Remove(paths[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := InitProfiles(dir); err == nil {
		t.Error("InitProfiles overwrote an existing profile")
	}
	if _, err := os.Stat(paths[1]); !os.IsNotExist(err) {
		t.Error("InitProfiles wrote one profile after refusing the other")
	}
}

func TestLoadProfileRejects(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"unknown key", `{"pakages":["git"]}`, "unknown field"},
		{"http", `{"rootfs_url":"http://x/y.tar"}`, "https"},
		{"sha", `{"rootfs_sha256":"abc"}`, "hex"},
		{"nul", "{\"name\":\"a\x00\"}", "NUL"},
		{"utf8", "{\"name\":\"\xff\"}", "UTF-8"},
		{"trailing", `{} {}`, "trailing"},
		{"no placeholder", `{"packages":["git"],"package_install_command":"apk add"}`, "{packages}"},
		{"bad package", `{"packages":["$(id)"],"package_install_command":"apk add {packages}"}`, "contains"},
		{"bad distro", `{"distro":"../x"}`, "distro name"},
		{"huge", `{"name":"` + strings.Repeat("a", maxProfileSize) + `"}`, "larger"},
		{"not json", `[`, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(testdir.New(t), "p.json")
			if err := os.WriteFile(path, []byte(tt.data), 0o600); err != nil {
				t.Fatal(err)
			}
			if _, err := LoadProfile(path); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("LoadProfile: %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

func TestDecodeWSLText(t *testing.T) {
	utf16le := func(s string, bom bool) []byte {
		var b []byte
		if bom {
			b = append(b, 0xFF, 0xFE)
		}
		for _, r := range s {
			b = append(b, byte(r), byte(r>>8))
		}
		return b
	}
	msg := "There is no distribution with the supplied name.\r\nError code: Wsl/Service/WSL_E_DISTRO_NOT_FOUND"
	for _, in := range [][]byte{[]byte(msg), utf16le(msg, false), utf16le(msg, true), utf16le(msg, false)[:len(msg)*2-1]} {
		if got := decodeWSLText(in); !strings.HasPrefix(got, "There is no distribution") || !isDistroNotFound(got) {
			t.Errorf("decodeWSLText(% x...) = %q", in[:8], got)
		}
	}
	if got := decodeWSLText([]byte("ok\xff")); got != "ok\uFFFD" {
		t.Errorf("invalid UTF-8 decoded as %q", got)
	}
	if got := oneLine("a\x1b[31m\r\n b\x00", 100); got != "a [31m b" {
		t.Errorf("oneLine = %q", got)
	}
}
