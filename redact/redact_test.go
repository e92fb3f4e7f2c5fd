package redact

import (
	"bytes"
	"strings"
	"testing"
)

// Synthetic tokens in public formats; none is a real credential.
const (
	tGHP    = "ghp_aB3dE5fG7hI9jK1lM3nO5pQ7rS9tU1vW3xY5"
	tGLPAT  = "glpat-Zx8Yw7Vu6Ts5Rq4Po3Nm"
	tSlack  = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	tStripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	tAKIA   = "AKIAIOSFODNN7EXAMPLE"
	tAWSSec = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	tAIza   = "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW"
	tOpenAI = "sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12"
	tAnt    = "sk-ant-api03-Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78St90Uv12Wx34Yz56-AA"
	tNPM    = "npm_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78"
	tPyPI   = "pypi-AgEIcHlwaS5vcmcCJDExMjM0NTY3LTg5YWItY2RlZi0xMjM0"
	tDocker = "dckr_pat_Ab12Cd34Ef56Gh78Ij90Kl12Mn3"
	tVault  = "hvs.CAESIAb12Cd34Ef56Gh78Ij90Kl12Mn34Op56"
	tSG     = "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"
	tJWT    = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	tDO     = "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tOpaque = "Xk9mP2vL7qR4sT8wY3zA6bC1dE5fG0hJ"
)

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// provider formats keep their type prefix
		{"github env", "export GITHUB_TOKEN=" + tGHP, "export GITHUB_TOKEN=ghp_[REDACTED]"},
		{"github at start", tGHP + " is my token", "ghp_[REDACTED] is my token"},
		{"github at end", "use " + tGHP, "use ghp_[REDACTED]"},
		{"github in url", "git clone https://" + tGHP + "@github.com/a/b", "git clone https://ghp_[REDACTED]@github.com/a/b"},
		{"gitlab", "GITLAB_TOKEN=" + tGLPAT + " glab ci", "GITLAB_TOKEN=glpat-[REDACTED] glab ci"},
		{"slack", "post " + tSlack, "post xoxb-[REDACTED]"},
		{"stripe", "stripe --api-key " + tStripe, "stripe --api-key sk_live_[REDACTED]"},
		{"aws pair", "AWS_ACCESS_KEY_ID=" + tAKIA + " AWS_SECRET_ACCESS_KEY=" + tAWSSec + " aws s3 ls",
			"AWS_ACCESS_KEY_ID=AKIA[REDACTED] AWS_SECRET_ACCESS_KEY=[REDACTED] aws s3 ls"},
		{"aws configure", "aws configure set aws_secret_access_key " + tAWSSec, "aws configure set aws_secret_access_key [REDACTED]"},
		{"google", "curl 'https://x.googleapis.com/v1?key=" + tAIza + "'", "curl 'https://x.googleapis.com/v1?key=AIza[REDACTED]'"},
		{"openai", "OPENAI_API_KEY=" + tOpenAI + " python a.py", "OPENAI_API_KEY=sk-proj-[REDACTED] python a.py"},
		{"anthropic", "x-api-key " + tAnt, "x-api-key sk-ant-api03-[REDACTED]"},
		{"npm", "echo //registry.npmjs.org/:_authToken=" + tNPM, "echo //registry.npmjs.org/:_authToken=npm_[REDACTED]"},
		{"pypi", "twine upload -p " + tPyPI, "twine upload -p pypi-[REDACTED]"},
		{"docker pat", "docker login -u me -p " + tDocker, "docker login -u me -p dckr_pat_[REDACTED]"},
		{"vault", "VAULT_TOKEN=" + tVault, "VAULT_TOKEN=hvs.[REDACTED]"},
		{"sendgrid", "key " + tSG, "key SG.[REDACTED]"},
		{"digitalocean", "doctl auth init -t " + tDO, "doctl auth init -t dop_v1_[REDACTED]"},
		{"jwt", "kubectl --token=" + tJWT + " get pods", "kubectl --token=eyJ[REDACTED] get pods"},
		{"pem one line", `echo '-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\n-----END RSA PRIVATE KEY-----' > k`,
			`echo '-----BEGIN RSA PRIVATE KEY-----[REDACTED]-----END RSA PRIVATE KEY-----' > k`},
		{"pem unterminated", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA",
			"-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED]"},
		// URLs and connection strings
		{"url password", "psql postgres://app:S3cr3t!@db:5432/app", "psql postgres://app:[REDACTED]@db:5432/app"},
		{"url password with @", "mongosh mongodb://u:p@ss@h/db", "mongosh mongodb://u:[REDACTED]@h/db"},
		{"go dsn", "-dsn 'app:pw1@x@tcp(db:3306)/shop'", "-dsn 'app:[REDACTED]@tcp(db:3306)/shop'"},
		{"ado string", `"Server=db;User Id=sa;Password=Pa55word;"`, `"Server=db;User Id=sa;Password=[REDACTED];"`},
		{"azure", "AccountName=acme;AccountKey=" + tAWSSec + "==;EndpointSuffix=core.windows.net",
			"AccountName=acme;AccountKey=[REDACTED];EndpointSuffix=core.windows.net"},
		// auth headers and schemes
		{"bearer header", `curl -H "Authorization: Bearer abc123def456" u`, `curl -H "Authorization: Bearer [REDACTED]" u`},
		{"basic header", `curl -H 'Authorization: Basic dXNlcjpwYXNz' u`, `curl -H 'Authorization: Basic [REDACTED]' u`},
		{"token header", `curl -H "Authorization: token 0123456789abcdef0123" u`, `curl -H "Authorization: token [REDACTED]" u`},
		{"digest header", `curl -H 'Authorization: Digest username="a", response="b"' u`, `curl -H 'Authorization: Digest [REDACTED]' u`},
		{"api key header", `curl -H 'X-API-Key: k3yv4lue99' u`, `curl -H 'X-API-Key: [REDACTED]' u`},
		{"private-token header", `curl --header "PRIVATE-TOKEN: abcdef123" u`, `curl --header "PRIVATE-TOKEN: [REDACTED]" u`},
		{"cookie header", `curl -H 'Cookie: sid=abc123; theme=dark' u`, `curl -H 'Cookie: [REDACTED]' u`},
		{"cookie flag", `curl -b 'session=9f8e7d6c5b4a3' u`, `curl -b 'session=[REDACTED]' u`},
		{"curl -u", "curl -u alice:hunter2 https://x", "curl -u alice:[REDACTED] https://x"},
		{"curl --user", "curl --user 'ci:pa ss' https://x", "curl --user 'ci:[REDACTED]' https://x"},
		// JSON and YAML
		{"json body", `curl -d '{"user":"bob","password":"p@ss w0rd"}' u`, `curl -d '{"user":"bob","password":"[REDACTED]"}' u`},
		{"escaped json", `curl -d "{\"api_key\": \"abc123xyz\"}" u`, `curl -d "{\"api_key\": \"[REDACTED]\"}" u`},
		{"yaml", "password: hunter2", "password: [REDACTED]"},
		// secret-named assignments and flags
		{"name=value", "DB_PASSWORD=hunter2 ./run", "DB_PASSWORD=[REDACTED] ./run"},
		{"quoted value", `export API_SECRET="two words"`, `export API_SECRET="[REDACTED]"`},
		{"flag=value", "deploy --password=hunter2 --env prod", "deploy --password=[REDACTED] --env prod"},
		{"flag value", "deploy --client-secret hunter2 --env prod", "deploy --client-secret [REDACTED] --env prod"},
		{"helm set", "helm install x --set auth.password=hunter2", "helm install x --set auth.password=[REDACTED]"},
		{"query param", "curl 'https://x/y?a=1&access_token=abc123&b=2'", "curl 'https://x/y?a=1&access_token=[REDACTED]&b=2'"},
		{"signed url", "curl 'https://b.s3.amazonaws.com/k?X-Amz-Signature=0123abcd&X-Amz-Date=1'",
			"curl 'https://b.s3.amazonaws.com/k?X-Amz-Signature=[REDACTED]&X-Amz-Date=1'"},
		{"sas sig", "curl 'https://a.blob.core.windows.net/c?sv=2022&sig=AbC%2B123%3D'", "curl 'https://a.blob.core.windows.net/c?sv=2022&sig=[REDACTED]'"},
		// tools' password flags
		{"mysql -p", "mysql -u root -pS3cret db", "mysql -u root -p[REDACTED] db"},
		{"mysql quoted", `mysqldump -p"S3 cret" db`, `mysqldump -p"[REDACTED]" db`},
		{"sshpass", "sshpass -p hunter2 ssh u@h", "sshpass -p [REDACTED] ssh u@h"},
		{"sshpass in sh -c", `sh -c 'sshpass -p hunter2 ssh u@h'`, `sh -c 'sshpass -p [REDACTED] ssh u@h'`},
		{"password-stdin", "echo hunter2 | docker login -u me --password-stdin", "echo [REDACTED] | docker login -u me --password-stdin"},
		{"sudo -S", "echo hunter2 | sudo -S true", "echo [REDACTED] | sudo -S true"},
		{"redis -a", "redis-cli -a hunter2 ping", "redis-cli -a [REDACTED] ping"},
		{"openssl pass", "openssl enc -aes256 -pass pass:hunter2 -in f", "openssl enc -aes256 -pass pass:[REDACTED] -in f"},
		{"keytool", "keytool -list -storepass hunter2", "keytool -list -storepass [REDACTED]"},
		{"htpasswd", "htpasswd -bc .htpasswd admin hunter2", "htpasswd -bc .htpasswd admin [REDACTED]"},
		{"secret put", "echo s3cretV4lue | wrangler secret put API_KEY", "echo [REDACTED] | wrangler secret put API_KEY"},
		{"sql password", `psql -c "ALTER USER app WITH PASSWORD 'n3wPass'"`, `psql -c "ALTER USER app WITH PASSWORD '[REDACTED]'"`},
		{"sql identified", `mysql -e "CREATE USER 'a'@'%' IDENTIFIED BY 'pw1'"`, `mysql -e "CREATE USER 'a'@'%' IDENTIFIED BY '[REDACTED]'"`},
		{"netrc", `echo "machine api.x.com login bob password hunter2" >> ~/.netrc`, `echo "machine api.x.com login bob password [REDACTED]" >> ~/.netrc`},
		{"name value words", "rclone config create r s3 secret_access_key RP4suvMZZvZLIjuadyck", "rclone config create r s3 secret_access_key [REDACTED]"},
		{"ngrok", "ngrok config add-authtoken 2Xk9mP2vL7qR4sT8wY3zA6bC1dE", "ngrok config add-authtoken [REDACTED]"},
		{"snyk", "snyk auth 123e4567-e89b-42d3-a456-426614174000", "snyk auth [REDACTED]"},
		{"ssh-keygen", "ssh-keygen -t ed25519 -N 'pa55 phrase' -f k", "ssh-keygen -t ed25519 -N '[REDACTED]' -f k"},
		{"vault legacy", "VAULT_ADDR=x vault login s.Ab12Cd34Ef56Gh78Ij90Kl12", "VAULT_ADDR=x vault login s.[REDACTED]"},
		{"pwd param", "curl 'https://x/login?user=bob&pwd=hunter2'", "curl 'https://x/login?user=bob&pwd=[REDACTED]'"},
		{"rabbitmq", "rabbitmqctl add_user admin s3cr3t", "rabbitmqctl add_user admin [REDACTED]"},
		{"openssl passwd", "useradd -p $(openssl passwd -6 hunter2) bob", "useradd -p $(openssl passwd -6 [REDACTED]) bob"},
		{"dev stdin", "echo -n hunter2 | kubectl create secret generic x --from-file=password=/dev/stdin",
			"echo -n [REDACTED] | kubectl create secret generic x --from-file=password=/dev/stdin"},
		{"bare opaque", "echo " + tOpaque + " > .token", "echo [REDACTED] > .token"},
		{"multi", tGHP + " " + tSlack + " " + tNPM, "ghp_[REDACTED] xoxb-[REDACTED] npm_[REDACTED]"},

		// must keep
		{"git sha", "git checkout 3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c", ""},
		{"digest", "docker pull nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31", ""},
		{"uuid", "curl http://localhost/orders/123e4567-e89b-42d3-a456-426614174000", ""},
		{"module", "go get golang.org/x/sys@v0.0.0-20240112132812-db7319d0e0e3", ""},
		{"var refs", `curl -H "Authorization: Bearer $TOKEN" -u "$USER:$PASS" "https://u:${PW}@x"`, ""},
		{"cmd subst", "export GITHUB_TOKEN=$(gh auth token)", ""},
		{"placeholder", "export OPENAI_API_KEY=<your-api-key>", ""},
		{"template", "API_KEY=${{ secrets.API_KEY }}", ""},
		{"stars", "password: ********", ""},
		{"ssh pubkey", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGx3Yk9pbmF5c2VjcmV0a2V5ZGF0YWhlcmU dev@host", ""},
		{"sri", `"integrity": "sha512-Xk9mP2vL7qR4sT8wY3zA6bC1dE5fG0hJXk9mP2vL7qR4sT8wY3zA6bC1dE5fG0hJ=="`, ""},
		{"go.sum", "github.com/a/b v1.2.3 h1:Xk9mP2vL7qR4sT8wY3zA6bC1dE5fG0hJXk9mP2vL7qR=", ""},
		{"base64 text", "echo SGVsbG8sIFdvcmxkISBUaGlzIGlzIGEgdGVzdA== | base64 -d", ""},
		{"path", "cat /home/dev/projects/MyApp2/src/Components/Button3/Button3.test.tsx", ""},
		{"test regex", "go test -run '^TestParseHTTP2Headers$' ./...", ""},
		{"camel", "grep HandleOAuth2CallbackWithPKCEVerifier *.go", ""},
		{"npm pkg", "npm i @acme/billing-client@^2.3.1 eslint-plugin-react-hooks", ""},
		{"cred file", "export GOOGLE_APPLICATION_CREDENTIALS=/home/dev/sa.json", ""},
		{"ttl", "export TOKEN_TTL=3600 SESSION_TIMEOUT=30m", ""},
		{"mysql prompt", "mysql -u root -p mydb", ""},
		{"ssh port", "ssh -p 2222 deploy@host", ""},
		{"docker user", "docker run -p 8080:80 -u 1000:1000 nginx", ""},
		{"with-token", "gh auth login --with-token < token.txt", ""},
		{"buildkit secret", "docker build --secret id=npmrc,src=$HOME/.npmrc .", ""},
		{"cookie jar", "curl -b cookies.txt -c cookies.txt https://x", ""},
		{"pwd", "printenv PWD=/home/x OLDPWD=/tmp", ""},
		{"newkey", "openssl req -newkey rsa:4096 -keyout server.key", ""},
		{"grep", `grep -rn "password:" config/`, ""},
		{"secret set from file", "gh secret set API_TOKEN < token.txt", ""},
		{"sql no password", `psql -c "SELECT password_hash FROM users"`, ""},
		{"name then word", "grep -n client_secret config.py", ""},
		{"regex match", `[[ $TOKEN =~ ^gh ]] && echo ok`, ""},
		{"vault token", "vault token lookup", ""},
		{"kubectl secret", "kubectl describe secret db-creds-2024 -n prod", ""},
		{"fingerprint", "ssh-keygen -lf k.pub # SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8", ""},
		{"ssh-keygen empty", `ssh-keygen -t ed25519 -N "" -f k`, ""},
		{"eth address", "cast balance 0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed --rpc-url $RPC", ""},
		{"go method", "grep -n s.HandleRequestWithTimeout2 server.go", ""},
		{"comparison", `[ "$TOKEN" == "abc" ] && echo same`, ""},
		{"short", "ls", ""},
		{"empty", "", ""},
		// "!" is an argument where no command starts: masking it as the
		// header's value leaves the rest of the curl command as it was,
		// so a second pass changes nothing (found by FuzzString).
		{"bang argument", "curl AuthoriZAtion: BeArer ! -a :0", "curl AuthoriZAtion: BeArer [REDACTED] -a :[REDACTED]"},
		{"bang command", "! mysql -phunter2", "! mysql -p[REDACTED]"},
		{"bang after pipe", "true | ! mysql -phunter2", "true | ! mysql -p[REDACTED]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.in
			}
			got := String(tt.in)
			if got != want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, want)
			}
			if again := String(got); again != got {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
}

func TestArgv(t *testing.T) {
	tests := []struct {
		name     string
		in, want []string
	}{
		{"flag pair", []string{"gh", "--token", "hunter2xyz", "repo"}, []string{"gh", "--token", "[REDACTED]", "repo"}},
		{"sshpass", []string{"sshpass", "-p", "hunter2", "ssh", "h"}, []string{"sshpass", "-p", "[REDACTED]", "ssh", "h"}},
		{"mysql attached", []string{"/usr/bin/mysql", "-uroot", "-phunter2"}, []string{"/usr/bin/mysql", "-uroot", "-p[REDACTED]"}},
		{"curl -u", []string{"curl", "-u", "a:b1c2", "u"}, []string{"curl", "-u", "a:[REDACTED]", "u"}},
		{"element", []string{"env", "GITHUB_TOKEN=" + tGHP, "make"}, []string{"env", "GITHUB_TOKEN=ghp_[REDACTED]", "make"}},
		{"sh -c", []string{"sh", "-c", "echo hunter2 | docker login --password-stdin"}, []string{"sh", "-c", "echo [REDACTED] | docker login --password-stdin"}},
		{"value with spaces", []string{"app", "--password", "two words"}, []string{"app", "--password", "[REDACTED]"}},
		{"keep", []string{"go", "test", "-run", "TestX", "./..."}, []string{"go", "test", "-run", "TestX", "./..."}},
		{"keep ref", []string{"app", "--token", "$TOKEN"}, []string{"app", "--token", "$TOKEN"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Argv(tt.in)
			if strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") {
				t.Errorf("Argv(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if again := Argv(got); strings.Join(again, "\x00") != strings.Join(got, "\x00") {
				t.Errorf("not idempotent: %q -> %q", got, again)
			}
		})
	}
	if Argv(nil) != nil {
		t.Error("Argv(nil) != nil")
	}
}

func TestSecretName(t *testing.T) {
	secret := []string{
		"GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "API_KEY", "OPENAI_API_KEY", "STRIPE_SECRET_KEY",
		"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_CLIENT_SECRET", "AZURE_STORAGE_KEY",
		"GOOGLE_API_KEY", "DB_PASSWORD", "MYSQL_ROOT_PASSWORD", "PGPASSWORD", "REDIS_PASSWD",
		"GPG_PASSPHRASE", "DOCKER_PAT", "DB_PWD", "SMTP_PASS", "CLIENT_CREDENTIALS", "SESSION_COOKIE",
		"PRIVATE_KEY", "SSH_PRIVATE_KEY", "SLACK_AUTH_TOKEN", "password", "apiKey", "accessToken",
		"X-Api-Key", "PRIVATE-TOKEN", "auth.password", "--client-secret", "_authToken", "AccountKey",
		"SharedAccessKey", "X-Amz-Signature", "sig", "JWT_SECRET", "SECRET_KEY_BASE", "ENCRYPTION_KEY",
		"AZURE_STORAGE_CONNECTION_STRING", "Authorization", "TF_VAR_api_token", "ansible_become_pass",
		"STRIPE_KEY", "DB_KEY", "KEY", "pwd",
	}
	notSecret := []string{
		"PATH", "HOME", "PWD", "OLDPWD", "TOKEN_TTL", "TOKEN_URL", "AWS_ACCESS_KEY_ID", "AWS_REGION",
		"GOOGLE_APPLICATION_CREDENTIALS_FILE", "PASSWORD_FILE", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM",
		"SESSION_TIMEOUT", "password-stdin", "with-token", "no-password", "PUBLIC_KEY", "sort-key",
		"GPG_KEY", "secret-name", "KEY_ID", "BYPASS_CACHE", "USER", "NODE_OPTIONS", "",
		"DBUS_SESSION_BUS_ADDRESS", "XDG_SESSION_TYPE", "XDG_SESSION_CLASS", "DESKTOP_SESSION", "SESSION_MANAGER",
		"TERM_SESSION_ID", "GIT_ASKPASS", "SSH_ASKPASS",
	}
	for _, n := range secret {
		if !SecretName(n) {
			t.Errorf("SecretName(%q) = false, want true", n)
		}
	}
	for _, n := range notSecret {
		if SecretName(n) {
			t.Errorf("SecretName(%q) = true, want false", n)
		}
	}
}

func TestSecretValue(t *testing.T) {
	for _, v := range []string{tGHP, tSlack, tAKIA, tJWT, tNPM, "postgres://u:pw@h/db", "x " + tOpenAI} {
		if !SecretValue(v) {
			t.Errorf("SecretValue(%q) = false", v)
		}
	}
	for _, v := range []string{"", "/usr/bin:/bin", "en_US.UTF-8", "xterm-256color", tOpaque, "https://example.com/a", "3f2a1b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"} {
		if SecretValue(v) {
			t.Errorf("SecretValue(%q) = true", v)
		}
	}
}

func TestFilter(t *testing.T) {
	in := "first " + tGHP + "\r\n" +
		"-----BEGIN RSA PRIVATE KEY-----\n" +
		"MIIEpAIBAAKCAQEA1b2c3\n" +
		"\n" +
		"abcDEF123+/\n" +
		"-----END RSA PRIVATE KEY-----\n" +
		"plain line\n" +
		"last DB_PASSWORD=x9"
	want := "first ghp_[REDACTED]\r\n" +
		"-----BEGIN RSA PRIVATE KEY-----\n" +
		"[REDACTED]\n" +
		"\n" +
		"[REDACTED]\n" +
		"[REDACTED]-----END RSA PRIVATE KEY-----\n" +
		"plain line\n" +
		"last DB_PASSWORD=[REDACTED]"
	var out bytes.Buffer
	if err := Filter(&out, strings.NewReader(in)); err != nil {
		t.Fatal(err)
	}
	if out.String() != want {
		t.Errorf("Filter:\n got %q\nwant %q", out.String(), want)
	}

	for _, bad := range []string{"ok\nbad \xff byte\n", "ok\nnul\x00\n"} {
		var out bytes.Buffer
		err := Filter(&out, strings.NewReader(bad))
		if err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("Filter(%q) error = %v, want one naming line 2", bad, err)
		}
		if out.String() != "ok\n" {
			t.Errorf("Filter(%q) wrote %q, want only the good line", bad, out.String())
		}
	}
	long := strings.Repeat("a", MaxLine+1) + "\n"
	if err := Filter(&bytes.Buffer{}, strings.NewReader(long)); err == nil {
		t.Error("Filter accepted a line longer than MaxLine")
	}
}

// TestHugeInput checks that a large input with many secrets is handled in
// linear time and without panicking.
func TestHugeInput(t *testing.T) {
	in := strings.Repeat("TOKEN="+tGHP+" curl -u a:b https://u:p@h/ ", 20000)
	out := String(in)
	if strings.Contains(out, tGHP) {
		t.Error("secret survived in huge input")
	}
	// Each of these was quadratic in an earlier version.
	for _, unit := range []string{"password=", "password=\"", "Cookie: ", "\"token\": \"", "x-api-key: ",
		"Authorization: Basic ", "a://b:c@", "--token ", "echo x | sudo -S ", "'a ", "-----BEGIN PRIVATE KEY-----"} {
		_ = String(strings.Repeat(unit, (1<<20)/len(unit)))
	}
	// Each try of the JWT rule at a trigger reads to the end of the line.
	_ = String(strings.Repeat("eyJ-", 1<<14))
	_ = String(strings.Repeat("=", 1<<20))
	_ = String(strings.Repeat(":", 1<<20))
	_ = String(strings.Repeat("a://", 1<<18))
	_ = String(strings.Repeat("-----BEGIN ", 1<<16))
}
