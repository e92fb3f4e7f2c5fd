package wsl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// A Profile describes how to build a distro, in the Aar distro profile
// format (JSON, snake_case keys). Every field is optional; [Setup] needs a
// rootfs source, and packages need a package_install_command.
type Profile struct {
	Name   string `json:"name,omitempty"`   // a label, e.g. "alpine"
	Distro string `json:"distro,omitempty"` // distro name; wsl.distro overrides it
	Shell  string `json:"shell,omitempty"`  // shell inside the distro; wsl.shell overrides it

	// Rootfs is a local rootfs tarball; a relative path is relative to the
	// profile's directory. RootfsURL is fetched (https only) when Rootfs is
	// empty. RootfsSHA256, when set, must match whichever is used.
	Rootfs       string `json:"rootfs,omitempty"`
	RootfsURL    string `json:"rootfs_url,omitempty"`
	RootfsSHA256 string `json:"rootfs_sha256,omitempty"`

	// PreInstallCommands run in order, as root, through the distro's shell
	// right after the import.
	PreInstallCommands []string `json:"pre_install_commands,omitempty"`
	// PackageInstallCommand installs Packages; {packages} expands to the
	// package names, each quoted for the shell.
	PackageInstallCommand string   `json:"package_install_command,omitempty"`
	Packages              []string `json:"packages,omitempty"`

	// VersionCommands maps a tool name to the shell command that prints
	// its version, for [Status].
	VersionCommands map[string]string `json:"version_commands,omitempty"`
}

// maxProfileSize caps a profile file; real ones are a few hundred bytes.
const maxProfileSize = 1 << 20

// LoadProfile reads and validates the profile at path. Unknown keys are
// an error, so that a misspelt key is not silently ignored.
func LoadProfile(path string) (Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return Profile{}, fmt.Errorf("wsl: profile: %v", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxProfileSize+1))
	if err != nil {
		return Profile{}, fmt.Errorf("wsl: profile %s: %v", path, err)
	}
	p, err := parseProfile(data)
	if err != nil {
		return Profile{}, fmt.Errorf("wsl: profile %s: %v", path, err)
	}
	if p.Rootfs != "" && !filepath.IsAbs(p.Rootfs) {
		p.Rootfs = filepath.Join(filepath.Dir(path), p.Rootfs)
	}
	return p, nil
}

// parseProfile decodes and validates one profile document.
func parseProfile(data []byte) (Profile, error) {
	var p Profile
	switch {
	case len(data) > maxProfileSize:
		return p, fmt.Errorf("larger than %d bytes", maxProfileSize)
	case bytes.IndexByte(data, 0) >= 0:
		return p, errors.New("contains a NUL byte")
	case !utf8.Valid(data):
		return p, errors.New("is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, err
	}
	if dec.More() {
		return p, errors.New("trailing data after the JSON object")
	}
	return p, p.validate()
}

// validate checks the values that reach a command line or a shell.
func (p Profile) validate() error {
	if p.Distro != "" {
		if err := checkDistroName(p.Distro); err != nil {
			return err
		}
	}
	if p.RootfsURL != "" && !strings.HasPrefix(p.RootfsURL, "https://") {
		return fmt.Errorf("rootfs_url %q is not an https URL", p.RootfsURL)
	}
	if p.RootfsSHA256 != "" && !isHex(p.RootfsSHA256, 64) {
		return fmt.Errorf("rootfs_sha256 %q is not 64 hex digits", p.RootfsSHA256)
	}
	if err := checkPackages(p.Packages); err != nil {
		return err
	}
	if len(p.Packages) > 0 && !strings.Contains(p.PackageInstallCommand, "{packages}") {
		return errors.New(`packages are listed but package_install_command has no {packages}`)
	}
	for name := range p.VersionCommands {
		if err := checkPackages([]string{name}); err != nil {
			return fmt.Errorf("version_commands: %v", err)
		}
	}
	return nil
}

// checkPackages accepts package names (with the version and repository
// syntax of apk, apt, dnf and pacman) and nothing a shell or an option
// parser would act on.
func checkPackages(pkgs []string) error {
	for _, p := range pkgs {
		if p == "" || p[0] == '-' || len(p) > 200 {
			return fmt.Errorf("package name %q is empty, too long or starts with '-'", p)
		}
		for i := 0; i < len(p); i++ {
			c := p[i]
			if !isASCIILetter(c) && !('0' <= c && c <= '9') && strings.IndexByte("._+-:=@/~<>", c) < 0 {
				return fmt.Errorf("package name %q contains %q", p, c)
			}
		}
	}
	return nil
}

func isHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := lowerASCII(s[i])
		if !('0' <= c && c <= '9') && !('a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// expandPackages fills {packages} in the install command.
func expandPackages(command string, pkgs []string) string {
	quoted := make([]string, len(pkgs))
	for i, p := range pkgs {
		quoted[i] = shellQuote(p)
	}
	return strings.ReplaceAll(command, "{packages}", strings.Join(quoted, " "))
}

// builtinProfiles are the profiles InitProfiles writes. The rootfs URLs
// are the distributions' published minimal images; pin rootfs_sha256
// after checking a download.
func builtinProfiles() map[string]Profile {
	return map[string]Profile{
		"alpine.json": {
			Name:                  "alpine",
			Shell:                 "sh",
			RootfsURL:             "https://dl-cdn.alpinelinux.org/alpine/v3.21/releases/x86_64/alpine-minirootfs-3.21.3-x86_64.tar.gz",
			PreInstallCommands:    []string{"apk update"},
			PackageInstallCommand: "apk add --no-cache {packages}",
			Packages:              []string{"bash", "ca-certificates", "git", "make", "python3", "py3-pip", "nodejs", "npm", "go"},
			VersionCommands:       defaultVersionCommands(),
		},
		"ubuntu.json": {
			Name:                  "ubuntu",
			Shell:                 "sh",
			RootfsURL:             "https://cloud-images.ubuntu.com/wsl/releases/24.04/current/ubuntu-noble-wsl-amd64-24.04lts.rootfs.tar.gz",
			PreInstallCommands:    []string{"apt-get update"},
			PackageInstallCommand: "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends {packages}",
			Packages:              []string{"ca-certificates", "git", "make", "python3", "python3-pip", "nodejs", "npm", "golang-go"},
			VersionCommands:       defaultVersionCommands(),
		},
	}
}

// defaultVersionCommands is what Status asks when the profile says nothing.
func defaultVersionCommands() map[string]string {
	return map[string]string{
		"git":     "git --version",
		"python3": "python3 --version",
		"node":    "node --version",
		"go":      "go version",
	}
}
