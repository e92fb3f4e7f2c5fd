package wsl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/aar-agent/aar-exec/internal/winargv"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// SetupOptions are the flags of "aar-exec wsl setup" and "wsl reset".
type SetupOptions struct {
	Force      bool     // unregister and recreate an existing distro
	Packages   []string // replace the profile's packages when not nil
	Distro     string   // replace the configured distro name
	InstallDir string   // default %LOCALAPPDATA%\aar\wsl-distros\<distro>

	// Where the output of wsl.exe and of the install commands goes; nil
	// discards it.
	Stdout, Stderr io.Writer

	// Download fetches url into the file dest. Nil runs the system's
	// curl.exe, https only; tests replace it.
	Download func(ctx context.Context, url, dest string) error
}

// maxWSLOutput caps what is kept of a lifecycle command's output.
const maxWSLOutput = 1 << 20

// wslOutput is how one wsl.exe call ended, with its output decoded.
type wslOutput struct {
	code        int
	stdout, err string
}

// text is both streams, for error messages.
func (o wslOutput) text() string { return o.stdout + "\n" + o.err }

// runWSL runs wsl.exe with args, passing its output on to stdout and
// stderr (either may be nil) and keeping up to maxWSLOutput of each.
func runWSL(ctx context.Context, exe string, stdout, stderr io.Writer, args ...string) (wslOutput, error) {
	full := append([]string{exe}, args...)
	if err := winargv.Check(full); err != nil {
		return wslOutput{}, fmt.Errorf("wsl: %v", err)
	}
	cmd := exec.CommandContext(ctx, exe, args...)
	cmd.Env = wslEnv(os.Environ())
	out := &headWriter{w: orDiscard(stdout), max: maxWSLOutput}
	errOut := &headWriter{w: orDiscard(stderr), max: maxWSLOutput}
	cmd.Stdout, cmd.Stderr = out, errOut
	cmd.WaitDelay = 2 * time.Second
	tree, err := prepareTree(cmd, winargv.Join(full), winPath{})
	if err != nil {
		return wslOutput{}, fmt.Errorf("wsl: %v", err)
	}
	defer tree.close()
	if err := cmd.Start(); err != nil {
		return wslOutput{}, fmt.Errorf("wsl: start %s: %v", exe, err)
	}
	if err := tree.started(cmd); err != nil {
		_ = tree.kill(cmd)
		_ = cmd.Wait()
		return wslOutput{}, fmt.Errorf("wsl: %v", err)
	}
	waitErr := cmd.Wait()
	if cmd.ProcessState == nil {
		return wslOutput{}, fmt.Errorf("wsl: wait for %s: %v", exe, waitErr)
	}
	if err := ctx.Err(); err != nil {
		return wslOutput{}, fmt.Errorf("wsl: %s %s: %w", exe, args[0], err)
	}
	return wslOutput{
		code:   cmd.ProcessState.ExitCode(),
		stdout: out.text(),
		err:    errOut.text(),
	}, nil
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// listDistros returns the names of the registered distros, from
// "wsl.exe --list --quiet", whose output is neither localized nor padded.
func listDistros(ctx context.Context, exe string) ([]string, error) {
	o, err := runWSL(ctx, exe, nil, nil, "--list", "--quiet")
	if err != nil {
		return nil, err
	}
	if o.code != 0 {
		// wsl.exe fails the listing when there is nothing to list.
		if strings.Contains(strings.ToLower(o.text()), "no installed distributions") {
			return nil, nil
		}
		return nil, fmt.Errorf("wsl: list distros: exit status 0x%X: %s", uint32(o.code), oneLine(o.text(), 300))
	}
	var names []string
	for line := range strings.Lines(o.stdout) {
		if name := strings.TrimSpace(line); name != "" {
			names = append(names, name)
		}
	}
	return names, nil
}

// hasDistro reports whether name is among names; wsl.exe compares distro
// names case-insensitively.
func hasDistro(names []string, name string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, name) })
}

// Setup creates the distro from the configured profile: it imports the
// rootfs (the local tarball, or rootfs_url fetched) with
//
//	wsl.exe --import DISTRO INSTALL_DIR TARBALL --version 2
//
// then runs the profile's pre_install_commands and its
// package_install_command. An existing distro is an error unless
// opt.Force, which replaces it. If a step after the import fails, the
// half-built distro is unregistered again.
func Setup(ctx context.Context, cfg Config, opt SetupOptions) error {
	return build(ctx, cfg, opt, opt.Force)
}

// Reset unregisters the distro, if it exists, and sets it up again from
// its profile. The CLI asks for confirmation unless --yes.
func Reset(ctx context.Context, cfg Config, opt SetupOptions) error {
	return build(ctx, cfg, opt, true)
}

// build is Setup and Reset. Everything that can fail without touching WSL
// (the configuration, the packages, the rootfs download and checksum)
// is done before an existing distro is unregistered, so a bad profile or
// a broken download never leaves the user with no distro at all.
func build(ctx context.Context, cfg Config, opt SetupOptions, replace bool) error {
	s, err := resolve(cfg)
	if err != nil {
		return err
	}
	if opt.Distro != "" {
		if err := checkDistroName(opt.Distro); err != nil {
			return err
		}
		s.distro = opt.Distro
	}
	prof := s.profile
	if prof.Rootfs == "" && prof.RootfsURL == "" {
		return errors.New(`wsl: setup needs a profile with rootfs or rootfs_url (set wsl.profile; "aar-exec wsl init-profiles" writes built-in ones)`)
	}
	pkgs := prof.Packages
	if opt.Packages != nil {
		if err := checkPackages(opt.Packages); err != nil {
			return fmt.Errorf("wsl: %v", err)
		}
		pkgs = opt.Packages
	}
	if len(pkgs) > 0 && !strings.Contains(prof.PackageInstallCommand, "{packages}") {
		return errors.New("wsl: packages to install but the profile's package_install_command has no {packages}")
	}
	exe, err := findExe(s.exe)
	if err != nil {
		return err
	}
	names, err := listDistros(ctx, exe)
	if err != nil {
		return err
	}
	exists := hasDistro(names, s.distro)
	if exists && !replace {
		return fmt.Errorf(`wsl: distro %q already exists; use --force to recreate it`, s.distro)
	}
	dir := opt.InstallDir
	if dir == "" {
		if dir, err = defaultInstallDir(s.distro); err != nil {
			return err
		}
	}
	// wsl.exe resolves a relative path against its own directory, not ours.
	if dir, err = filepath.Abs(dir); err != nil {
		return fmt.Errorf("wsl: install directory: %v", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("wsl: install directory: %v", err)
	}
	tarball, cleanup, err := fetchRootfs(ctx, prof, dir, opt)
	if err != nil {
		return err
	}
	defer cleanup()
	if exists {
		if err := unregister(ctx, exe, s.distro, opt); err != nil {
			return err
		}
	}

	o, err := runWSL(ctx, exe, opt.Stdout, opt.Stderr, "--import", s.distro, dir, tarball, "--version", "2")
	if err != nil {
		return err
	}
	if o.code != 0 {
		return fmt.Errorf("wsl: import %q from %s: exit status 0x%X: %s", s.distro, tarball, uint32(o.code), oneLine(wslMessage(o.text()), 300))
	}
	steps := slices.Clone(prof.PreInstallCommands)
	if len(pkgs) > 0 {
		steps = append(steps, expandPackages(prof.PackageInstallCommand, pkgs))
	}
	for _, step := range steps {
		o, err := runWSL(ctx, exe, opt.Stdout, opt.Stderr, "-d", s.distro, "--exec", s.shell, "-c", step)
		if err == nil && o.code != 0 {
			err = fmt.Errorf("wsl: setup of %q: %q failed with exit status %d: %s", s.distro, step, o.code, lastChars(oneLine(o.err, maxWSLOutput), 300))
		}
		if err != nil {
			// Leave nothing half-built behind, even after an interrupt;
			// the setup error is the one to report.
			cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Minute)
			_ = unregister(cctx, exe, s.distro, opt)
			cancel()
			return err
		}
	}
	return nil
}

// unregister removes the distro and its disk.
func unregister(ctx context.Context, exe, distro string, opt SetupOptions) error {
	o, err := runWSL(ctx, exe, opt.Stdout, opt.Stderr, "--unregister", distro)
	if err != nil {
		return err
	}
	if o.code != 0 {
		return fmt.Errorf("wsl: unregister %q: exit status 0x%X: %s", distro, uint32(o.code), oneLine(o.text(), 300))
	}
	return nil
}

// defaultInstallDir is %LOCALAPPDATA%\aar\wsl-distros\<distro>.
func defaultInstallDir(distro string) (string, error) {
	base := os.Getenv("LOCALAPPDATA")
	if base == "" {
		return "", errors.New("wsl: LOCALAPPDATA is not set; give an install directory")
	}
	return filepath.Join(base, "aar", "wsl-distros", distro), nil
}

// fetchRootfs returns the tarball to import and a function that removes
// anything downloaded. The checksum, when the profile has one, is checked
// before the tarball is used.
func fetchRootfs(ctx context.Context, prof Profile, dir string, opt SetupOptions) (string, func(), error) {
	nothing := func() {}
	path := prof.Rootfs
	if path == "" {
		path = filepath.Join(dir, "rootfs.download")
		download := opt.Download
		if download == nil {
			download = curlDownload
		}
		if err := download(ctx, prof.RootfsURL, path); err != nil {
			os.Remove(path)
			return "", nothing, fmt.Errorf("wsl: download %s: %v", prof.RootfsURL, err)
		}
		nothing = func() { os.Remove(path) }
	}
	if prof.RootfsSHA256 != "" {
		sum, err := fileSHA256(path)
		if err != nil {
			nothing()
			return "", func() {}, fmt.Errorf("wsl: rootfs: %v", err)
		}
		if !strings.EqualFold(sum, prof.RootfsSHA256) {
			nothing()
			return "", func() {}, fmt.Errorf("wsl: rootfs %s has SHA-256 %s, the profile wants %s", path, sum, prof.RootfsSHA256)
		}
	} else if _, err := os.Stat(path); err != nil {
		return "", nothing, fmt.Errorf("wsl: rootfs: %v", err)
	}
	return path, nothing, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// curlDownload fetches url with curl.exe, which Windows ships since 1803;
// using it keeps net/http and its start-up cost out of aar-exec.
func curlDownload(ctx context.Context, url, dest string) error {
	curl := "curl"
	if root := os.Getenv("SystemRoot"); root != "" {
		if p := filepath.Join(root, "System32", "curl.exe"); fileExists(p) {
			curl = p
		}
	}
	cmd := exec.CommandContext(ctx, curl, "--fail", "--location", "--proto", "=https", "--proto-redir", "=https",
		"--silent", "--show-error", "--output", dest, "--", url)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%v: %s", err, oneLine(string(out), 300))
	}
	return nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// A StatusReport describes the configured distro, for "aar-exec wsl status".
type StatusReport struct {
	Distro   string            `json:"distro"`
	Exists   bool              `json:"exists"`
	Kernel   string            `json:"kernel,omitempty"`   // uname -r inside the distro
	Shell    string            `json:"shell,omitempty"`    // the shell's path inside the distro, "" if missing
	Versions map[string]string `json:"versions,omitempty"` // tool -> first line of its version output; "" if not installed
}

// statusScript prints ASCII RS-separated records of "name US value": the
// kernel, the shell's path ($1), then each tool's version, where the
// arguments after $1 come in name/command pairs.
const statusScript = `printf '\036kernel\037%s' "$(uname -r 2>/dev/null)"; ` +
	`printf '\036shell\037%s' "$(command -v "$1" 2>/dev/null)"; shift; ` +
	`while [ "$#" -ge 2 ]; do v=$( (eval "$2") 2>/dev/null </dev/null) || v=; printf '\036tool:%s\037%s' "$1" "$v"; shift 2; done`

// Status reports whether the distro exists and, if it does, its kernel,
// its shell and the versions of the profile's tools (git, python3, node
// and go when the profile names none), in one wsl.exe call.
func Status(ctx context.Context, cfg Config) (StatusReport, error) {
	s, err := resolve(cfg)
	if err != nil {
		return StatusReport{}, err
	}
	rep := StatusReport{Distro: s.distro}
	exe, err := findExe(s.exe)
	if err != nil {
		return rep, err
	}
	names, err := listDistros(ctx, exe)
	if err != nil {
		return rep, err
	}
	if rep.Exists = hasDistro(names, s.distro); !rep.Exists {
		return rep, nil
	}
	tools := s.profile.VersionCommands
	if len(tools) == 0 {
		tools = defaultVersionCommands()
	}
	args := []string{"-d", s.distro, "--exec", s.shell, "-c", statusScript, "aar-exec", s.shell}
	for _, name := range slices.Sorted(maps.Keys(tools)) {
		args = append(args, name, tools[name])
	}
	o, err := runWSL(ctx, exe, nil, nil, args...)
	if err != nil {
		return rep, err
	}
	if o.code != 0 {
		if isWSLFailure(o.code, o.text()) {
			return rep, wslFailure(s.distro, o.code, o.text())
		}
		return rep, fmt.Errorf("wsl: status of %q: exit status %d: %s", s.distro, o.code, lastChars(oneLine(o.err, maxWSLOutput), 300))
	}
	rep.Versions = map[string]string{}
	for rec := range strings.SplitSeq(o.stdout, "\x1e") {
		name, value, ok := strings.Cut(rec, "\x1f")
		if !ok {
			continue
		}
		value, _, _ = strings.Cut(value, "\n")
		value = oneLine(value, 200)
		switch {
		case name == "kernel":
			rep.Kernel = value
		case name == "shell":
			rep.Shell = value
		case strings.HasPrefix(name, "tool:"):
			if _, known := tools[name[len("tool:"):]]; known {
				rep.Versions[name[len("tool:"):]] = value
			}
		}
	}
	return rep, nil
}

// InitProfiles writes the built-in profiles, alpine.json and ubuntu.json,
// into dir, creating it, and returns their paths. It overwrites nothing:
// if either file exists it writes neither.
func InitProfiles(dir string) ([]string, error) {
	profiles := builtinProfiles()
	names := slices.Sorted(maps.Keys(profiles))
	for _, name := range names {
		if _, err := os.Lstat(filepath.Join(dir, name)); !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("wsl: init-profiles: %s already exists (or cannot be checked); remove it first", filepath.Join(dir, name))
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("wsl: init-profiles: %v", err)
	}
	var written []string
	for _, name := range names {
		data, err := json.MarshalIndent(profiles[name], "", "  ")
		if err != nil {
			return written, fmt.Errorf("wsl: init-profiles: %v", err)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return written, fmt.Errorf("wsl: init-profiles: %v", err)
		}
		_, werr := f.Write(append(data, '\n'))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			os.Remove(path)
			return written, fmt.Errorf("wsl: init-profiles: write %s: %v", path, werr)
		}
		written = append(written, path)
	}
	return written, nil
}

// A Report says whether WSL mode can run here, for "aar-exec doctor".
type Report struct {
	Exe          string `json:"exe,omitempty"` // the wsl.exe found
	WSL          bool   `json:"wsl"`           // wsl.exe exists and answers
	Distro       string `json:"distro"`
	DistroExists bool   `json:"distro_exists"`
	Problem      string `json:"problem,omitempty"` // what is wrong and how to fix it; "" when ready
}

// probeTimeout bounds doctor's wait for a wsl.exe that may be starting the
// WSL service.
const probeTimeout = 30 * time.Second

// Probe reports whether wsl.exe exists and answers, and whether the
// configured distro is registered. It never fails: what is wrong goes in
// Report.Problem.
func Probe(ctx context.Context, cfg Config) Report {
	s, err := resolve(cfg)
	rep := Report{Distro: s.distro}
	if err != nil {
		rep.Problem = err.Error()
		return rep
	}
	exe, err := findExe(s.exe)
	if err != nil {
		rep.Problem = err.Error()
		return rep
	}
	rep.Exe = exe
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	names, err := listDistros(ctx, exe)
	if err != nil {
		rep.Problem = err.Error()
		return rep
	}
	rep.WSL = true
	if rep.DistroExists = hasDistro(names, s.distro); !rep.DistroExists {
		rep.Problem = fmt.Sprintf(`distro %q does not exist; create it with "aar-exec wsl setup"`, s.distro)
	}
	return rep
}
