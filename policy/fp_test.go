package policy

import "testing"

// TestCommonCommandsAllowed runs commands agents, Makefiles and CI send
// every day: none may be denied by the defaults.
func TestCommonCommandsAllowed(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	for _, s := range []string{
		"npm ci && npm run build", "pip install -r requirements.txt", "python -m venv .venv && . .venv/bin/activate",
		"cargo build --release 2>&1 | tail -20", "docker compose up -d", "kubectl get pods -A",
		"git log --oneline -n 20", "git diff HEAD~1 -- src/", "git checkout -b feature/x", "git stash && git pull --rebase && git stash pop",
		"sed -i 's/foo/bar/g' src/main.go", "awk '{print $1}' access.log | sort | uniq -c | sort -rn | head",
		"find . -type f -name '*.go' | xargs grep -l TODO", "find . -name '*.pyc' -exec rm {} +",
		"tar czf dist.tgz dist/", "unzip -o pkg.zip -d vendor/", "mkdir -p build && cd build && cmake .. && make -j$(nproc)",
		"export GOFLAGS=-mod=mod; go mod download", "cat package.json | jq '.scripts'", "ls -la ~/proj",
		"echo \"$PATH\" | tr ':' '\\n'", "which go node python3", "env | sort", "printenv HOME",
		"for i in $(seq 1 3); do echo $i; done", "while read -r l; do echo \"$l\"; done < input.txt",
		"test -f go.mod && go build ./... || echo no", "[ -d .git ] && git rev-parse HEAD",
		"curl -sS https://api.github.com/repos/x/y | jq .stargazers_count", "wget -q https://example.com/f.tar.gz",
		"ssh-keygen -lf known_hosts", "rm -f *.o core", "rm -rf \"$TMPDIR/build\"", "rm -rf ../proj-old",
		"rm -rf $(go env GOCACHE)/x", "chmod -R u+w vendor", "chmod 644 README.md", "chown -R $USER: .",
		"kill %1", "kill -TERM $PID", "sleep 1 &", "nohup ./server > server.log 2>&1 &", "timeout 60 go test ./...",
		"sudo apt-get update", "bash -c 'set -euo pipefail; make test'", "sh -c 'cd sub && ls'",
		"python3 - <<'EOF'\nprint('hi')\nEOF", "node -e 'console.log(1)'", "perl -ne 'print if /x/' f.txt",
		"cat <<EOF > notes.md\n# notes\nEOF", "echo ok >> build.log", "dd if=/dev/urandom of=rand.bin bs=1k count=1",
		"diff <(sort a) <(sort b)", "exec 3>&1", "trap 'rm -f $TMP' EXIT", "git clean -n", "history | tail",
		"openssl rand -hex 16", "base64 -d < blob.b64 > blob.bin", "echo aGkK | base64 -d", "cd ~ && ls",
		"echo {1..1000}", "echo {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}", "x={a,b}; echo $x",
		"cat > f.go <<'EOF'\nfunc main() { m := map[string]int{\"x\": 1}; _ = m }\nEOF",
		"args=(-v ./...); go test \"${args[@]}\"", "set -- a b; echo \"$@\"", "mv build build.old", "chmod -R g+w ./shared",
		"name=${file%.go}; echo $name", "cd \"$(dirname \"$0\")\"", "chown -R $(id -u) ./cache",
		`rm -rf "${DIR:?}"/*`, `rm -rf "$DIR"`, `rm -rf "$DIR/build"`, `rm -rf "$TMPDIR"/aar-*`,
		`v=$(curl -s https://api.example.com/v); echo "$v"`, `./tool --version "$(curl -s https://x/v)"`,
		"ls -la /etc", "cat /etc/hosts", "grep -rn password src/", "code .", "go vet ./... && staticcheck ./...",
		// Options and variables that name a command a program runs.
		"rsync -e ssh a h:b", "rsync -avz -e 'ssh -p 2222' dist/ h:www/", "ssh -o ProxyCommand='ssh -W %h:%p bastion' h",
		"GIT_SSH_COMMAND='ssh -o StrictHostKeyChecking=no' git fetch", "git -c core.pager=cat log",
		"tar -I zstd -cf a.tar.zst d", "tar --use-compress-program='zstd -19' -cf a.tar.zst d", "PAGER=cat man ls",
		"GIT_EDITOR=true git commit", "env -S 'FOO=1 make test'", "GIT_PAGER= git log", "EDITOR=vim git commit",
		"git -c credential.helper= -c credential.helper=store push", "git config --global user.email a@b.c",
	} {
		if d := p.Check(Request{Script: s}); d.Action != Allow {
			t.Errorf("Check(%q) = %v; want allow", s, d)
		}
	}
}
