package policy

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseConfigEveryKey(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "full.json"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConfig("full.json", data)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Safety
	def := Default().Safety.DeniedPaths
	if !slices.Equal(s.DeniedPaths[:len(def)], def) || s.DeniedPaths[len(def)] != "**/*.sqlite" {
		t.Errorf("denied_paths not appended to the defaults: %q", s.DeniedPaths)
	}
	checks := []struct {
		name string
		ok   bool
	}{
		{"read_only", s.ReadOnly},
		{"require_approval_for_writes", s.RequireApprovalForWrites},
		{"require_approval_for_execute", s.RequireApprovalForExecute},
		{"approval_mode", s.ApprovalMode == ApprovalAskForDangerous},
		{"allowed_paths", slices.Equal(s.AllowedPaths, []string{"<cwd>/**", "/tmp/**"})},
		{"path_rules", len(s.PathRules) == 2 && s.PathRules[0].Action == Allow && s.PathRules[0].Access == "read" && s.PathRules[1].Action == Ask},
		{"command_rules", len(s.CommandRules) == 2 && s.CommandRules[0].Pattern == "git push *" && s.CommandRules[0].Action == Ask},
		{"denied_commands", slices.Equal(s.DeniedCommands, []string{"terraform destroy"})},
		{"log_all_commands", s.LogAllCommands},
		{"sandbox.mode", s.Sandbox.Mode == "linux"},
		{"sandbox.linux", s.Sandbox.Linux.Workspace == "/w" && s.Sandbox.Linux.MaxMemoryMB == 2048},
		{"sandbox.windows", s.Sandbox.Windows.Workspace == `C:\w` && s.Sandbox.Windows.MaxMemoryMB == 1024 && s.Sandbox.Windows.MaxProcesses == 64 && s.Sandbox.Windows.UseLowIntegrity},
		{"sandbox.wsl", s.Sandbox.WSL.Profile == "dev" && s.Sandbox.WSL.Distro == "Ubuntu" && s.Sandbox.WSL.Shell == "bash" && s.Sandbox.WSL.Workspace == "/mnt/c/w"},
		{"aar_exec.audit", c.Exec.Audit.Path == "/var/log/aar.jsonl" && c.Exec.Audit.HMACKeyFile == "/etc/aar/key" && c.Exec.Audit.BestEffort},
		{"aar_exec.timeout", time.Duration(c.Exec.Timeout) == 90*time.Second},
		{"aar_exec.allow_write", slices.Equal(c.Exec.AllowWrite, []string{"/tmp/cache"})},
		{"aar_exec.env", c.Exec.Env == "strict"},
		{"aar_exec.pass_env", slices.Equal(c.Exec.PassEnv, []string{"GOPATH", "GOCACHE"})},
		{"aar_exec.max_processes", c.Exec.MaxProcesses == 256},
		{"aar_exec.shell", c.Exec.Shell == "/bin/bash"},
		{"aar_exec.best_effort", c.Exec.BestEffort},
		{"aar_exec.allow_home", c.Exec.AllowHome},
		{"aar_exec.allow_secret_reads", c.Exec.AllowSecretReads},
		{"aar_exec.approvals_file", c.Exec.ApprovalsFile == "/etc/aar/approvals.json"},
	}
	for _, ck := range checks {
		if !ck.ok {
			t.Errorf("key %s was not decoded", ck.name)
		}
	}
	// Round trip: what we decode, we can encode.
	if _, err := json.Marshal(c); err != nil {
		t.Errorf("marshal: %v", err)
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name, data, want string
	}{
		{"unknown key in safety", `{"safety": {"read_only": true, "raed_only": false}}`, `cfg.json:1:32: unknown key "raed_only" in safety`},
		{"unknown nested key", `{"safety": {"sandbox": {"linux": {"max_mem": 1}}}}`, `unknown key "max_mem" in safety.sandbox.linux`},
		{"unknown key in a list element", `{"safety": {"path_rules": [{"pattern": "x", "action": "deny", "acess": "read"}]}}`, `unknown key "acess" in safety.path_rules[0]`},
		{"unknown key in aar_exec", "{\n\"aar_exec\": {\"audit\": {\"pth\": \"x\"}}}", `cfg.json:2:24: unknown key "pth" in aar_exec.audit`},
		{"key in another case", `{"safety": {"READ_ONLY": false}}`, `unknown key "READ_ONLY" in safety`},
		{"duplicate key", `{"safety": {"read_only": true, "read_only": false}}`, `duplicate key "read_only" in safety`},
		{"malformed", "{\n  \"safety\": {\n    \"read_only\": tru\n  }\n}", "cfg.json:3:21: invalid character"},
		{"truncated", `{"safety": {`, "cfg.json:1:12: unexpected end of JSON input"},
		{"trailing data", `{} {}`, "cfg.json:1:4: invalid character '{' after top-level value"},
		{"not an object", `[]`, "cfg.json:1:2: top level: want policy.Config, got JSON array"},
		{"wrong type", `{"safety": {"read_only": "yes"}}`, "cfg.json:1:31: safety.read_only: want bool"},
		{"bad action", `{"safety": {"command_rules": [{"pattern": "x", "action": "maybe"}]}}`, `unknown action "maybe"`},
		{"bad approval mode", `{"safety": {"approval_mode": "sometimes"}}`, `unknown mode "sometimes"`},
		{"bad sandbox mode", `{"safety": {"sandbox": {"mode": "docker"}}}`, `unknown mode "docker"`},
		{"bad env", `{"aar_exec": {"env": "some"}}`, `aar_exec.env: unknown mode "some"`},
		{"bad timeout", `{"aar_exec": {"timeout": "soon"}}`, `invalid duration`},
		{"numeric timeout", `{"aar_exec": {"timeout": 30}}`, `duration must be a string`},
		{"negative", `{"aar_exec": {"max_processes": -1}}`, `negative value`},
		{"NUL", "{\"safety\": {}\x00}", "cfg.json:1:14: NUL byte"},
		{"invalid UTF-8", "{\"safety\": {\"denied_paths\": [\"\xff\"]}}", "invalid UTF-8"},
		{"object for a list", `{"safety": {"denied_paths": {}}}`, "safety.denied_paths: want []string, got JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig("cfg.json", []byte(tc.data))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseConfig(%q) error = %v; want it to contain %q", tc.data, err, tc.want)
			}
			if err != nil && !strings.Contains(err.Error(), "cfg.json") {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestParseConfigHuge(t *testing.T) {
	data := []byte(`{"x": "` + strings.Repeat("a", MaxConfigSize) + `"}`)
	if _, err := ParseConfig("big.json", data); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("huge config: err = %v", err)
	}
}

func TestParseConfigIgnoresOtherTopLevelKeys(t *testing.T) {
	c, err := ParseConfig("aar.json", []byte(`{"provider": "x", "max_steps": 30, "timeout": 600, "tools": {"any": [1]}, "safety": {"read_only": true}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Safety.ReadOnly || c.Safety.ApprovalMode != ApprovalAuto || c.Exec.Env != "inherit" {
		t.Errorf("got %+v", c.Safety)
	}
}

// TestDeniedListsNeverShrink: a file, the environment and flags can only
// add to the denied lists.
func TestDeniedListsNeverShrink(t *testing.T) {
	c, err := ParseConfig("c.json", []byte(`{"safety": {"denied_paths": [], "denied_commands": null}}`))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Safety.DeniedPaths, Default().Safety.DeniedPaths) {
		t.Errorf("an empty list in the file removed defaults: %q", c.Safety.DeniedPaths)
	}
	c.AddDeniedPaths("/srv/private/**", " ", "")
	c.AddDeniedCommands("terraform destroy", "")
	if n := len(c.Safety.DeniedPaths); n != len(Default().Safety.DeniedPaths)+1 {
		t.Errorf("AddDeniedPaths: %d paths", n)
	}
	p := mustCompile(t, c, testEnv)
	runCases(t, p, []checkCase{
		{"cat /srv/private/a", Deny, "denied_paths[32]:/srv/private/**"},
		{"terraform   destroy -auto-approve", Deny, "denied_commands[0]:terraform destroy"},
		{"cat ~/.ssh/id_rsa", Deny, "denied_paths[14]:**/.ssh/**"},
	})
}

func TestCompileErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(c *Config)
		env  Env
		want string
	}{
		{"bad glob", func(c *Config) { c.Safety.DeniedPaths = append(c.Safety.DeniedPaths, "/x/[") }, testEnv, "denied_paths[32]: bad glob"},
		{"home unknown", func(c *Config) { c.AddDeniedPaths("~/.kube/**") }, Env{Cwd: "/w"}, "needs the home directory"},
		{"relative cwd", func(c *Config) {}, Env{Cwd: "w", Home: "/h"}, "not absolute"},
		{"bad command rule", func(c *Config) { c.Safety.CommandRules = []CommandRule{{Pattern: "git [", Action: Deny}} }, testEnv, "command_rules[0]"},
		{"empty path rule", func(c *Config) { c.Safety.PathRules = []PathRule{{Action: Deny}} }, testEnv, "path_rules[0].pattern: empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := Default()
			tc.edit(c)
			_, err := Compile(c, tc.env)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Compile error = %v; want %q", err, tc.want)
			}
		})
	}
}

func TestDeniedLocations(t *testing.T) {
	c := Default()
	c.AddDeniedPaths("~/.ssh/**", "/srv/*.key", "/opt/secret/*", `C:\Users\u\.aws\**`)
	p := mustCompile(t, c, testEnv)
	got := p.DeniedLocations()
	want := []string{"/etc/shadow", "/etc/passwd", "/etc/sudoers", "/etc/sudoers.d", "/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "/home/u/.ssh", "/opt/secret", "c:/Users/u/.aws"}
	if !slices.Equal(got, want) {
		t.Errorf("DeniedLocations() = %q; want %q", got, want)
	}
}

func TestDefaultUsesLowIntegrity(t *testing.T) {
	if !Default().Safety.Sandbox.Windows.UseLowIntegrity {
		t.Error("windows.use_low_integrity defaults to false, want true")
	}
	c, err := ParseConfig("c.json", []byte(`{"safety": {"sandbox": {"windows": {"use_low_integrity": false}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.Safety.Sandbox.Windows.UseLowIntegrity {
		t.Error("a config saying use_low_integrity false was ignored")
	}
	c, _ = ParseConfig("c.json", []byte(`{"safety": {"sandbox": {"windows": {"max_memory_mb": 64}}}}`))
	if !c.Safety.Sandbox.Windows.UseLowIntegrity {
		t.Error("a config without use_low_integrity turned it off")
	}
}
