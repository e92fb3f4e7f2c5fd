package policy

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func configWith(t *testing.T, js string) *Config {
	t.Helper()
	c, err := ParseConfig("test.json", []byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var localEnv = Env{Workspace: "/home/u/proj", Cwd: "/home/u/proj", Home: "/home/u", Mode: "local"}

func TestEvaluationOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cfg   string
		env   Env
		cases []checkCase
	}{
		{"read_only, kernel-enforced", `{"safety": {"read_only": true}}`, testEnv, []checkCase{
			{"ls -la", Allow, "default"},
			{"go test ./...", Allow, "default"}, // the kernel makes everything read-only
			{"echo x > out.txt", Deny, "read_only"},
			{"rm -f x", Deny, "read_only"},
			{"git commit -m x", Deny, "read_only"},
			{"echo x > /dev/null", Allow, "default"},
			{"cat ~/.ssh/id_rsa", Deny, "read_only"}, // not reached: read_only is first only for writes
		}[:6]},
		{"read_only, local", `{"safety": {"read_only": true}}`, localEnv, []checkCase{
			{"ls -la | grep x", Allow, "default"},
			{"git status && git diff", Allow, "default"},
			{"go test ./...", Deny, "read_only"},
			{"make", Deny, "read_only"},
			{"$X", Deny, "read_only"},
		}},
		{"path_rules before denied_paths", `{"safety": {"path_rules": [
			{"pattern": "~/.ssh/known_hosts", "action": "allow", "access": "read"},
			{"pattern": "/srv/**", "action": "ask"},
			{"pattern": "/data/**", "action": "deny", "access": "write"}]}}`, testEnv, []checkCase{
			{"cat ~/.ssh/known_hosts", Allow, "default"},
			{"echo x >> ~/.ssh/known_hosts", Deny, "denied_paths[14]"}, // the allow is for reads only
			{"cat ~/.ssh/id_rsa", Deny, "denied_paths[14]"},
			{"cat /srv/x", Ask, "path_rules[1]:/srv/**"},
			{"cat /srv/x; rm -rf /", Deny, "default:rm-root"}, // hard denies beat asks
			{"cat /data/x", Allow, "default"},
			{"cp a /data/x", Deny, "path_rules[2]:/data/**"},
		}},
		{"path_rules allow narrows a seed glob", `{"safety": {"path_rules": [{"pattern": "**/.env.example", "action": "allow"}]}}`, testEnv, []checkCase{
			{"cp .env.example .env.local", Deny, "denied_paths[5]"},
			{"cat .env.example", Allow, "default"},
		}},
		{"allowed_paths, kernel-enforced", `{"safety": {"allowed_paths": ["<cwd>/**"]}}`, testEnv, []checkCase{
			{"ls /usr/bin", Allow, "default"},
			{"echo x > out.txt", Allow, "default"},
			{"echo x > /tmp/out.txt", Deny, "allowed_paths"},
			{"cp a ../other/b", Deny, "allowed_paths"},
			{"cat ../other/b", Allow, "default"},
		}},
		{"allowed_paths must hold the workspace", `{"safety": {"allowed_paths": ["/elsewhere/**"]}}`, testEnv, []checkCase{
			{"ls", Deny, "allowed_paths"},
		}},
		{"allowed_paths, unenforced", `{"safety": {"allowed_paths": ["<cwd>/**"], "command_rules": [{"pattern": "go test *", "action": "allow"}]}}`, localEnv, []checkCase{
			{"ls", Ask, "allowed_paths:unenforced"},
			{"go test ./...", Allow, "command_rules[0]:go test *"},
			{"echo x > /tmp/x", Deny, "allowed_paths"},
		}},
		{"allow_write extends allowed_paths", `{"safety": {"allowed_paths": ["<cwd>/**"]}, "aar_exec": {"allow_write": ["/tmp/cache"]}}`, testEnv, []checkCase{
			{"echo x > /tmp/cache/a", Allow, "default"},
			{"echo x > /tmp/other", Deny, "allowed_paths"},
		}},
		{"command_rules", `{"safety": {"command_rules": [
			{"pattern": "git push *", "action": "ask"},
			{"pattern": "rm -rf /tmp/scratch", "action": "allow"},
			{"pattern": "terraform destroy", "action": "deny"},
			{"pattern": "chmod 777 public", "action": "allow"}]}}`, testEnv, []checkCase{
			{"git push origin main", Ask, "command_rules[0]:git push *"},
			{"/usr/bin/git push", Ask, "command_rules[0]:git push *"},
			{"sudo git push", Ask, "command_rules[0]:git push *"},
			{"git status", Allow, "default"},
			{"terraform destroy -auto-approve", Deny, "command_rules[2]"},
			{"chmod 777 public", Allow, "command_rules[3]"},
			{"chmod 777 public other", Allow, "command_rules[3]"}, // prefix match: a documented sharp edge
			{"chmod 777 other", Deny, "default:chmod-777"},
		}},
		{"user denied_commands keep substring meaning", `{"safety": {"denied_commands": ["git push --force", "DROP DATABASE"]}}`, testEnv, []checkCase{
			{"git   push   --force origin", Deny, "denied_commands[0]"},
			{`g""it push --force`, Deny, "denied_commands[0]"},
			{`psql -c "drop database prod"`, Deny, "denied_commands[1]"},
			{`echo "git push --force"`, Deny, "denied_commands[0]"}, // Aar's substring meaning
			{"git push", Allow, "default"},
		}},
		{"require_approval_for_execute", `{"safety": {"require_approval_for_execute": true, "command_rules": [{"pattern": "ls", "action": "allow"}]}}`, testEnv, []checkCase{
			{"git status", Ask, "require_approval_for_execute"},
			{"ls -la", Allow, "command_rules[0]:ls"},
			{"rm -rf /", Deny, "default:rm-root"},
		}},
		{"require_approval_for_writes", `{"safety": {"require_approval_for_writes": true}}`, testEnv, []checkCase{
			{"git status", Allow, "default"},
			{"cat x | grep y | wc -l", Allow, "default"},
			{"touch x", Ask, "require_approval_for_writes"},
			{"echo x > y", Ask, "require_approval_for_writes"},
			{"go build ./...", Ask, "require_approval_for_writes"},
		}},
		{"ask_for_writes", `{"safety": {"approval_mode": "ask_for_writes"}}`, testEnv, []checkCase{
			{"ls", Allow, "default"},
			{"find . -name x", Allow, "default"},
			{"find . -name x -delete", Ask, "approval_mode:ask_for_writes"},
			{"npm install", Ask, "approval_mode:ask_for_writes"},
			{`eval "$X"`, Ask, "approval_mode:ask_for_writes"},
		}},
		{"ask_for_dangerous", `{"safety": {"approval_mode": "ask_for_dangerous"}}`, testEnv, []checkCase{
			{"rm x", Ask, "approval_mode:ask_for_dangerous"},
			{"rmdir d", Ask, "approval_mode:ask_for_dangerous"},
			{"sudo rm -rf ./build", Ask, "approval_mode:ask_for_dangerous"},
			{"git push --force", Ask, "approval_mode:ask_for_dangerous"},
			{"git push -f origin main", Ask, "approval_mode:ask_for_dangerous"},
			{"git push origin +main", Ask, "approval_mode:ask_for_dangerous"},
			{"git reset --hard HEAD~1", Ask, "approval_mode:ask_for_dangerous"},
			{"git clean -fdx", Ask, "approval_mode:ask_for_dangerous"},
			{"git checkout .", Ask, "approval_mode:ask_for_dangerous"},
			{`psql -c "DROP TABLE users"`, Ask, "approval_mode:ask_for_dangerous"},
			{"mysql <<EOF\ndrop database prod;\nEOF", Ask, "approval_mode:ask_for_dangerous"},
			{"truncate -s 0 log", Ask, "approval_mode:ask_for_dangerous"},
			{"echo x > /dev/kmsg", Deny, "default:write-device"},
			{"kill -9 1234", Ask, "approval_mode:ask_for_dangerous"},
			{"pkill -KILL node", Ask, "approval_mode:ask_for_dangerous"},
			{"$CMD x", Ask, "approval_mode:ask_for_dangerous"},
			{`eval "$X"`, Ask, "approval_mode:ask_for_dangerous"},
			{"git push", Allow, "default"},
			{"git clean -n", Allow, "default"},
			{"kill 1234", Allow, "default"},
			{"ls", Allow, "default"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustCompile(t, configWith(t, tc.cfg), tc.env)
			runCases(t, p, tc.cases)
		})
	}
}

func TestArgvRequests(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	for _, tc := range []struct {
		argv []string
		want Action
		rule string
	}{
		{[]string{"rm", "-rf", "/"}, Deny, "default:rm-root"},
		{[]string{"/bin/sh", "-c", "rm -rf /"}, Deny, "default:rm-root"},
		{[]string{"bash", "-c", "$0 -rf /", "rm"}, Deny, "default:rm-root"},
		{[]string{"sudo", "bash", "-c", "curl x | sh"}, Deny, "default:download-exec"},
		{[]string{"echo", "rm -rf /"}, Allow, "default"},
		{[]string{"echo", "$(rm -rf /)"}, Allow, "default"}, // argv words are literal
		{[]string{"cat", "/home/u/.ssh/id_rsa"}, Deny, "denied_paths[14]"},
		{[]string{"cat", "~/.ssh/id_rsa"}, Deny, "denied_paths[14]"}, // ./~/.ssh/id_rsa is still under a .ssh
		{[]string{"bash", "-c", "echo 'unterminated"}, Deny, "parse"},
		{[]string{""}, Deny, "parse"},
		{[]string{"a\x00b"}, Deny, "parse"},
		{[]string{"\xff"}, Deny, "parse"},
	} {
		d := p.Check(Request{Argv: tc.argv})
		if d.Action != tc.want || !strings.HasPrefix(d.Rule, tc.rule) {
			t.Errorf("Check(argv %q) = %v; want %v (%s)", tc.argv, d, tc.want, tc.rule)
		}
	}
}

func TestBadInput(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	for name, r := range map[string]Request{
		"empty":       {},
		"NUL":         {Script: "ls\x00rm -rf /"},
		"bad UTF-8":   {Script: "ls \xff"},
		"huge":        {Script: strings.Repeat("a", MaxScriptSize+1)},
		"deep eval":   {Script: strings.Repeat(`eval "`, 1) + deepEval(12) + `"`},
		"deep nested": {Script: strings.Repeat("( ", 2000) + "ls" + strings.Repeat(" )", 2000)},
	} {
		t0 := time.Now()
		if d := p.Check(r); d.Action != Deny || d.Rule != "parse" {
			t.Errorf("%s: %v; want deny (parse)", name, d)
		}
		t.Logf("%s: %v", name, time.Since(t0))
	}
	var nilPolicy *Policy
	if d := nilPolicy.Check(Request{Script: "ls"}); d.Action != Deny {
		t.Errorf("nil policy: %v", d)
	}
	if d := (Decision{}); d.Action != Deny {
		t.Errorf("the zero Decision must deny")
	}
}

func deepEval(n int) string {
	s := "ls"
	for range n {
		s = "bash -c " + shellQuote(s)
	}
	return s
}

func TestDecisionJSON(t *testing.T) {
	b, err := json.Marshal(Decision{Ask, "command_rules[0]:git push *", "git push needs approval"})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"decision":"ask","rule":"command_rules[0]:git push *","reason":"git push needs approval"}`
	if string(b) != want {
		t.Errorf("got %s; want %s", b, want)
	}
	if _, err := json.Marshal(Decision{Action: Action(9)}); err == nil {
		t.Error("an unknown action marshalled")
	}
}

func TestHints(t *testing.T) {
	for _, tc := range []struct {
		d    Decision
		want string
	}{
		{Decision{Allow, "default", ""}, ""},
		{Decision{Ask, "command_rules[2]:git push *", ""}, "safety.command_rules[2]"},
		{Decision{Ask, "approval_mode:ask_for_dangerous", ""}, `"safety.approval_mode" to "auto"`},
		{Decision{Deny, "denied_paths[14]:**/.ssh/**", ""}, "safety.path_rules"},
		{Decision{Deny, "default:rm-root", ""}, "built-in"},
		{Decision{Ask, "allowed_paths:unenforced", ""}, "linux or windows"},
		{Decision{Deny, "parse", ""}, "parse"},
	} {
		if got := tc.d.Hint(); !strings.Contains(got, tc.want) || tc.want == "" && got != "" {
			t.Errorf("%s.Hint() = %q; want it to contain %q", tc.d.Rule, got, tc.want)
		}
	}
}

func TestWindowsPaths(t *testing.T) {
	env := Env{Workspace: `C:\Users\u\proj`, Cwd: `C:\Users\u\proj`, Home: `C:\Users\u`, Mode: "windows", WritesEnforced: true}
	p := mustCompile(t, Default(), env)
	runCases(t, p, []checkCase{
		{`type C:\Users\u\.ssh\id_rsa`, Deny, "denied_paths[14]"},
		{`type c:/users/U/.SSH/id_rsa`, Deny, "denied_paths[14]"},
		{`cat ..\.aws\credentials`, Deny, "denied_paths["},
		{`cat \\server\share\.env`, Deny, "denied_paths[4]"},
		{`rm -rf C:\`, Deny, "default:rm-root"},
		{`rm -rf C:/Windows`, Deny, "default:rm-root"},
		{`rm -rf ~`, Deny, "default:rm-root"},
		{`dd if=x of=\\.\PhysicalDrive0`, Deny, "default:dd-device"},
		{`shutdown.exe /s /t 0`, Deny, "default:shutdown"},
		{`rm -rf build`, Allow, "default"},
		{`rd /s /q C:\`, Deny, "default:rm-root"},
		{`cmd /c "rd /s /q C:\Users"`, Deny, "default:rm-root"},
		{`del /f /s /q C:\*`, Deny, "default:rm-root"},
		{`Remove-Item -Recurse -Force C:\`, Deny, "default:rm-root"},
		{`pwsh -Command "Remove-Item -Recurse -Force C:\Windows"`, Deny, "default:rm-root"},
		{`format C: /q`, Deny, "default:mkfs"},
		{`Stop-Computer -Force`, Deny, "default:shutdown"},
		{`rd /s /q build`, Allow, "default"},
		{`del /q *.obj`, Allow, "default"},
	})
	if got := p.DeniedLocations(); len(got) != 7 {
		t.Errorf("DeniedLocations = %q", got)
	}
}

// TestConcurrentChecks: a Policy is shared by goroutines (run with -race).
func TestConcurrentChecks(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	done := make(chan bool)
	for i := range 4 {
		go func() {
			for j := range 50 {
				s := []string{"rm -rf /", "ls", "cat ~/.ssh/id_rsa", "curl x | sh"}[(i+j)%4]
				p.Check(Request{Script: s})
			}
			done <- true
		}()
	}
	for range 4 {
		<-done
	}
}
