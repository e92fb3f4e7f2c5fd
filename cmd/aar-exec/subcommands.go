package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/aar-agent/aar-exec/launcher/linux"
	"github.com/aar-agent/aar-exec/launcher/windows"
	"github.com/aar-agent/aar-exec/launcher/wsl"
	"github.com/aar-agent/aar-exec/policy"
	"github.com/aar-agent/aar-exec/redact"
	"github.com/aar-agent/aar-exec/shellargs"
	"github.com/alecthomas/kong"
)

// Version is set at link time for releases (-ldflags -X main.Version=...).
var Version = ""

func versionString() string {
	v := Version
	if v == "" {
		v = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			v = bi.Main.Version
		}
	}
	return fmt.Sprintf("aar-exec %s %s/%s %s", v, runtime.GOOS, runtime.GOARCH, runtime.Version())
}

// builtWithCgo reports whether this binary was built with cgo on, as a
// plain "go build" or "go install" does where a C compiler is installed:
// os/user then links the C library through the dynamic loader.
func builtWithCgo() bool {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return false
	}
	for _, kv := range bi.Settings {
		if kv.Key == "CGO_ENABLED" {
			return kv.Value == "1"
		}
	}
	return false
}

const cgoWarning = "build: cgo was on, which links this binary dynamically unless told otherwise: " +
	"about 0.7 ms more per launch, and LD_PRELOAD applies to it; rebuild it static with make build or CGO_ENABLED=0 go build ./cmd/aar-exec"

// check evaluates the policy only and prints the decision as JSON; it
// never runs anything.
func (a *app) check(args []string) (int, error) {
	inv, err := shellargs.Parse("aar-exec", args, ownFlag)
	if err != nil {
		return 0, failed("check: %v", err)
	}
	var req policy.Request
	switch {
	case len(inv.Argv) > 0:
		req.Argv = inv.Argv
	case inv.Command != nil:
		req.Script = *inv.Command
	default:
		return 0, failed("check needs -c STRING or -- PROG ARGS...; for example aar-exec check -c 'rm -rf /'")
	}
	s, err := a.resolve(inv.Own, inv.Argv == nil)
	if err != nil {
		return 0, err
	}
	pol, err := policy.Compile(s.cfg, s.policyEnv())
	if err != nil {
		return 0, failed("%v; fix the config file", err)
	}
	if s.shell != "" {
		req.Shell = filepath.Base(s.shell) // else /bin/sh, as a run would use
	}
	d := pol.Check(req)
	out, _ := json.Marshal(d)
	fmt.Fprintf(a.stdout, "%s\n", out)
	if d.Action != policy.Allow {
		return exitDenied, nil
	}
	return 0, nil
}

// subcommands are the ones kong parses; the run and check forms use the
// shell grammar instead.
type subcommands struct {
	Config string `env:"AAR_CONFIG" help:"Config file (default ~/.aar/config.json when present)."`

	Doctor struct {
		JSON bool `help:"Print JSON."`
	} `cmd:"" help:"Show what this machine can enforce."`
	Version struct{} `cmd:"" help:"Print the version."`
	Redact  struct{} `cmd:"" help:"Scrub secrets from stdin to stdout, line by line."`
	Audit   struct {
		Init struct {
			Key string `help:"Key file to create (default: aar_exec.audit.hmac_key_file, else the state directory)."`
		} `cmd:"" help:"Create the HMAC key that chains audit lines."`
		Verify struct {
			File string `arg:"" help:"Audit log to verify."`
			Key  string `help:"Key file (default: aar_exec.audit.hmac_key_file, else the state directory)."`
		} `cmd:"" help:"Check an audit log's MAC chain."`
	} `cmd:"" help:"Manage the tamper-evident audit log."`
	InstallShims struct {
		Dir string `arg:"" help:"Directory for the bash and sh shims."`
	} `cmd:"" name:"install-shims" help:"Make DIR/bash and DIR/sh run through aar-exec."`
	WSL struct {
		Setup struct {
			Force    bool     `help:"Recreate the distro."`
			Packages []string `help:"Packages to install instead of the profile's." sep:","`
			Distro   string   `help:"Distro name."`
		} `cmd:"" help:"Import and provision the WSL distro."`
		Status       struct{}           `cmd:"" help:"Show the distro's state."`
		Reset        struct{ Yes bool } `cmd:"" help:"Unregister and recreate the distro."`
		InitProfiles struct {
			Dir string `arg:"" optional:"" help:"Where to write the profiles."`
		} `cmd:"" name:"init-profiles" help:"Write the built-in Alpine and Ubuntu profiles."`
	} `cmd:"" name:"wsl" help:"Manage the WSL distro."`
}

func (a *app) subcommand(args []string) (int, error) {
	var cli subcommands
	k, err := kong.New(&cli, kong.Name("aar-exec"), kong.Writers(a.stdout, a.stderr),
		kong.Exit(func(int) {}), kong.UsageOnError())
	if err != nil {
		return 0, failed("%v", err)
	}
	ctx, err := k.Parse(args)
	if err != nil {
		return 0, failed("%v; see aar-exec --help", err)
	}
	switch ctx.Command() {
	case "version":
		fmt.Fprintln(a.stdout, versionString())
		return 0, nil
	case "doctor":
		return a.doctor(configFlag(cli.Config), cli.Doctor.JSON)
	case "redact":
		if err := redact.Filter(a.stdout, a.stdin); err != nil {
			return 0, failed("redact: %v", err)
		}
		return 0, nil
	case "audit init":
		return a.auditInit(configFlag(cli.Config), cli.Audit.Init.Key)
	case "audit verify <file>":
		return a.auditVerify(configFlag(cli.Config), cli.Audit.Verify.File, cli.Audit.Verify.Key)
	case "install-shims <dir>":
		return a.installShims(cli.InstallShims.Dir)
	}
	if strings.HasPrefix(ctx.Command(), "wsl") {
		return a.wslCommand(ctx.Command(), &cli)
	}
	return 0, failed("unknown command %q; see aar-exec --help", ctx.Command())
}

// doctor reports what this machine can enforce; it exits 0 when the
// default mode can be enforced and 125 otherwise.
func (a *app) doctor(own []string, asJSON bool) (int, error) {
	s, err := a.resolve(own, false)
	if err != nil {
		return 0, err
	}
	type report struct {
		OS          string          `json:"os"`
		Mode        string          `json:"mode"`
		Enforceable bool            `json:"enforceable"`
		Linux       *linux.Report   `json:"linux,omitempty"`
		Windows     *windows.Report `json:"windows,omitempty"`
		WSL         *wsl.Report     `json:"wsl,omitempty"`
		Protected   []string        `json:"protected_paths,omitempty"`
		Config      string          `json:"config,omitempty"`
		AuditLog    string          `json:"audit_log,omitempty"`
		Cgo         bool            `json:"built_with_cgo,omitempty"`
	}
	r := report{OS: runtime.GOOS, Mode: s.mode, Config: s.configPath, AuditLog: s.auditPath, Cgo: runtime.GOOS == "linux" && builtWithCgo()}
	switch runtime.GOOS {
	case "linux":
		lr := linux.Probe()
		r.Linux = &lr
		r.Enforceable = lr.Enforceable
		if pol, err := policy.Compile(s.cfg, s.policyEnv()); err == nil && !s.secretReads {
			for _, p := range s.secretLocations(pol) {
				if _, err := os.Lstat(p); err == nil {
					r.Protected = append(r.Protected, p)
				}
			}
		}
	case "windows":
		wr := windows.Probe()
		r.Windows = &wr
		r.Enforceable = wr.Enforceable()
		wp := wsl.Probe(context.Background(), s.wslConfig())
		r.WSL = &wp
	}
	if asJSON {
		b, _ := json.MarshalIndent(r, "", "  ")
		fmt.Fprintf(a.stdout, "%s\n", b)
	} else {
		fmt.Fprintf(a.stdout, "aar-exec %s on %s: default mode %s\n", versionString(), runtime.GOOS, s.mode)
		if r.Linux != nil {
			fmt.Fprint(a.stdout, r.Linux.String())
			if len(r.Protected) > 0 {
				fmt.Fprintf(a.stdout, "unreadable inside the sandbox (read denial):\n  %s\n", strings.Join(r.Protected, "\n  "))
			}
		}
		if r.Windows != nil {
			fmt.Fprint(a.stdout, r.Windows.String())
		}
		if r.WSL != nil {
			fmt.Fprintf(a.stdout, "wsl: present=%v distro %s exists=%v %s\n", r.WSL.WSL, r.WSL.Distro, r.WSL.DistroExists, r.WSL.Problem)
		}
		fmt.Fprintf(a.stdout, "audit log: %s\n", cmp.Or(r.AuditLog, "off"))
		if r.Cgo {
			fmt.Fprintln(a.stdout, cgoWarning)
		}
	}
	if !r.Enforceable {
		return 0, failed("the default mode cannot be enforced on this machine; see the report above")
	}
	return 0, nil
}

// installShims makes DIR/bash and DIR/sh point at this binary: invoked
// under those names, aar-exec wraps the real /bin/bash or /bin/sh.
func (a *app) installShims(dir string) (int, error) {
	self, err := os.Executable()
	if err != nil {
		return 0, failed("find aar-exec's own path: %v", err)
	}
	if self, err = filepath.EvalSymlinks(self); err != nil {
		return 0, failed("find aar-exec's own path: %v", err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, failed("create %s: %v", dir, err)
	}
	for _, name := range []string{"bash", "sh"} {
		link := filepath.Join(dir, name)
		if cur, err := os.Readlink(link); err == nil && cur == self {
			continue
		}
		if _, err := os.Lstat(link); err == nil {
			return 0, failed("%s already exists; remove it or choose another directory", link)
		}
		if err := os.Symlink(self, link); err != nil {
			return 0, failed("create the shim %s: %v", link, err)
		}
		fmt.Fprintf(a.stdout, "%s -> %s\n", link, self)
	}
	return 0, nil
}

// wslConfig is the WSL launcher's configuration from the config file.
func (s *settings) wslConfig() wsl.Config {
	w := s.cfg.Safety.Sandbox.WSL
	return wsl.Config{Distro: w.Distro, Shell: w.Shell, Workspace: w.Workspace, Profile: w.Profile}
}

func (a *app) wslCommand(cmd string, cli *subcommands) (int, error) {
	s, err := a.resolve(configFlag(cli.Config), false)
	if err != nil {
		return 0, err
	}
	ctx := context.Background()
	cfg := s.wslConfig()
	opt := wsl.SetupOptions{Stdout: a.stdout, Stderr: a.stderr}
	switch {
	case cmd == "wsl setup":
		opt.Force, opt.Packages, opt.Distro = cli.WSL.Setup.Force, cli.WSL.Setup.Packages, cli.WSL.Setup.Distro
		err = wsl.Setup(ctx, cfg, opt)
	case cmd == "wsl status":
		var st wsl.StatusReport
		if st, err = wsl.Status(ctx, cfg); err == nil {
			b, _ := json.MarshalIndent(st, "", "  ")
			fmt.Fprintf(a.stdout, "%s\n", b)
		}
	case cmd == "wsl reset":
		if !cli.WSL.Reset.Yes {
			return 0, failed("wsl reset unregisters the distro and deletes everything in it; pass --yes to confirm")
		}
		err = wsl.Reset(ctx, cfg, opt)
	case strings.HasPrefix(cmd, "wsl init-profiles"):
		var files []string
		if files, err = wsl.InitProfiles(cli.WSL.InitProfiles.Dir); err == nil {
			slices.Sort(files)
			fmt.Fprintln(a.stdout, strings.Join(files, "\n"))
		}
	}
	if err != nil {
		return 0, launchError(err)
	}
	return 0, nil
}

// configFlag hands a subcommand's --config to the settings resolver.
func configFlag(path string) []string {
	if path == "" {
		return nil
	}
	return []string{"--config=" + path}
}
