// Command gen writes the redaction corpus: secrets.txt, where every secret
// is wrapped in ⟦ ⟧, and benign.txt, whose lines must come out unchanged.
// All tokens are synthetic, random strings in public formats.
//
//	go run ./redact/testdata/gen -dir redact/testdata
package main

import (
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
)

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	b62    = upper + lower + digits
	hexl   = "0123456789abcdef"
)

type gen struct{ r *rand.Rand }

func (g gen) pick(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// random mixes classes like a real token: no all-letter tokens.
func (g gen) rnd(alphabet string, n int) string {
	for {
		s := g.pick(alphabet, n)
		if strings.ContainsAny(s, digits) && strings.ContainsAny(s, upper+lower) {
			return s
		}
	}
}

func (g gen) one(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g gen) uuid() string {
	h := g.pick(hexl, 32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
}

func m(s string) string { return "⟦" + s + "⟧" }

func (g gen) word() string {
	return g.one("alpha", "billing", "checkout", "api", "web", "worker", "payments", "auth", "search", "infra", "data", "ml")
}

func (g gen) host() string {
	return g.one("db.internal", "10.0.3.17", "localhost", "prod-db.example.com", "pg.acme.io", "mysql.svc.cluster.local", "127.0.0.1")
}

func (g gen) password() string {
	return g.one(
		g.rnd(b62, 12), g.rnd(b62+"!#%^*", 16), "hunter2"+g.pick(digits, 2), "S3cure!"+g.pick(b62, 5),
		"P@ssw0rd"+g.pick(digits, 3), g.pick(lower, 6)+g.pick(digits, 4), "Tr0ub4dor&"+g.pick(digits, 1),
		g.rnd(b62, 24), "correct-horse-"+g.pick(lower, 5)+g.pick(digits, 2),
	)
}

// secretLines returns templates, each producing one line with marked secrets.
func (g gen) secretLines() []func() string {
	ghp := func() string { return g.one("ghp_", "gho_", "ghs_", "ghu_") + m(g.rnd(b62, 36)) }
	pat := func() string { return "github_pat_" + m(g.rnd(b62, 22)+"_"+g.rnd(b62, 59)) }
	glpat := func() string { return "glpat-" + m(g.rnd(b62+"_-", 20)) }
	slack := func() string {
		return "xox" + g.one("b", "p", "a", "r", "s") + "-" + m(g.pick(digits, 12)+"-"+g.pick(digits, 13)+"-"+g.rnd(b62, 24))
	}
	stripe := func() string {
		return g.one("sk_live_", "rk_live_", "sk_test_", "pk_live_") + m(g.rnd(b62, 24+g.r.IntN(75)))
	}
	akia := func() string { return g.one("AKIA", "ASIA") + m(g.pick(upper+"234567", 16)) }
	awsSecret := func() string { return m(g.rnd(b62+"+/", 40)) }
	aiza := func() string { return "AIza" + m(g.rnd(b62+"_-", 35)) }
	openai := func() string {
		return g.one("sk-proj-", "sk-", "sk-svcacct-") + m(g.rnd(b62+"_-", 48+g.r.IntN(80)))
	}
	anthropic := func() string { return "sk-ant-api03-" + m(g.rnd(b62+"_-", 93)+"AA") }
	npm := func() string { return "npm_" + m(g.rnd(b62, 36)) }
	pypi := func() string { return "pypi-" + m("AgEIcHlwaS5vcmc"+g.rnd(b62+"_-", 70)) }
	docker := func() string { return "dckr_pat_" + m(g.rnd(b62+"_-", 27)) }
	vault := func() string { return g.one("hvs.", "hvb.") + m(g.rnd(b62+"_-", 24+g.r.IntN(70))) }
	twilio := func() string { return "SK" + m(g.pick(hexl, 32)) }
	sendgrid := func() string { return "SG." + m(g.rnd(b62+"_-", 22)+"."+g.rnd(b62+"_-", 43)) }
	mailgun := func() string { return "key-" + m(g.pick(hexl, 32)) }
	heroku := func() string { return "HRKU-" + m(g.rnd(b62+"_-", 60)) }
	do := func() string { return "dop_v1_" + m(g.pick(hexl, 64)) }
	shopify := func() string { return g.one("shpat_", "shpss_") + m(g.pick(hexl, 32)) }
	jwt := func() string {
		return "eyJ" + m("hbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9."+"eyJzdWIiOiI"+g.rnd(b62, 30)+"."+g.rnd(b62+"_-", 43))
	}
	azureKey := func() string { return m(g.rnd(b62+"+/", 86) + "==") }
	pem := func(kind string) string {
		return "-----BEGIN " + kind + "PRIVATE KEY-----\\n" + m("MIIE"+g.rnd(b62+"+/", 60)+"\\n"+g.rnd(b62+"+/", 64)) + "\\n-----END " + kind + "PRIVATE KEY-----"
	}
	hex32 := func() string { return g.pick(hexl, 32) }
	b64 := func(n int) string { return g.rnd(b62+"+/", n) }
	w := g.word
	pw := g.password
	return []func() string{
		func() string { return "export GITHUB_TOKEN=" + ghp() },
		func() string { return "GH_TOKEN=" + ghp() + " gh pr create --fill" },
		func() string { return "git clone https://" + ghp() + "@github.com/acme/" + w() + ".git" },
		func() string { return "git clone https://x-access-token:" + ghp() + "@github.com/acme/" + w() + ".git" },
		func() string {
			return "curl -H \"Authorization: token " + ghp() + "\" https://api.github.com/repos/acme/" + w() + "/pulls"
		},
		func() string { return "curl -sH 'Authorization: Bearer " + pat() + "' https://api.github.com/user" },
		func() string { return "echo " + ghp() + " | gh auth login --with-token" },
		func() string {
			return "git remote set-url origin https://oauth2:" + glpat() + "@gitlab.com/acme/" + w() + ".git"
		},
		func() string {
			return "curl --header \"PRIVATE-TOKEN: " + glpat() + "\" https://gitlab.example.com/api/v4/projects"
		},
		func() string { return "export GITLAB_TOKEN=" + glpat() + " && glab mr list" },
		func() string { return "SLACK_BOT_TOKEN=" + slack() + " node bot.js" },
		func() string {
			return "curl -X POST -H 'Authorization: Bearer " + slack() + "' -d 'channel=C123&text=deployed' https://slack.com/api/chat.postMessage"
		},
		func() string {
			return "curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/" + m("T"+g.pick(upper+digits, 8)+"/B"+g.pick(upper+digits, 8)+"/"+g.rnd(b62, 24))
		},
		func() string { return "stripe listen --api-key " + stripe() + " --forward-to localhost:3000/webhook" },
		func() string { return "curl https://api.stripe.com/v1/charges -u " + stripe() + ":" },
		func() string { return "export STRIPE_SECRET_KEY=" + stripe() },
		func() string {
			return "AWS_ACCESS_KEY_ID=" + akia() + " AWS_SECRET_ACCESS_KEY=" + awsSecret() + " aws s3 ls s3://" + w() + "-bucket"
		},
		func() string { return "aws configure set aws_access_key_id " + akia() },
		func() string { return "aws configure set aws_secret_access_key " + awsSecret() },
		func() string { return "export AWS_SESSION_TOKEN=" + m(g.rnd(b62+"+/", 300)+"==") },
		func() string {
			return "docker run -e AWS_ACCESS_KEY_ID=" + akia() + " -e AWS_SECRET_ACCESS_KEY=" + awsSecret() + " amazon/aws-cli s3 ls"
		},
		func() string {
			return "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=" + aiza() + "'"
		},
		func() string { return "export GOOGLE_API_KEY=" + aiza() },
		func() string { return "OPENAI_API_KEY=" + openai() + " python agent.py" },
		func() string {
			return "curl https://api.openai.com/v1/chat/completions -H \"Authorization: Bearer " + openai() + "\" -H 'Content-Type: application/json'"
		},
		func() string {
			return "curl https://api.anthropic.com/v1/messages -H 'x-api-key: " + anthropic() + "' -H 'anthropic-version: 2023-06-01'"
		},
		func() string { return "export ANTHROPIC_API_KEY=" + anthropic() },
		func() string { return "claude --api-key " + anthropic() + " -p 'summarize'" },
		func() string { return "npm config set //registry.npmjs.org/:_authToken=" + npm() },
		func() string { return "echo \"//registry.npmjs.org/:_authToken=" + npm() + "\" > ~/.npmrc" },
		func() string { return "NPM_TOKEN=" + npm() + " npm publish --access public" },
		func() string { return "twine upload -u __token__ -p " + pypi() + " dist/*" },
		func() string { return "TWINE_PASSWORD=" + pypi() + " twine upload dist/*" },
		func() string { return "uv publish --token " + pypi() },
		func() string { return "echo " + docker() + " | docker login -u acme --password-stdin" },
		func() string { return "docker login -u acme -p " + docker() + " registry-1.docker.io" },
		func() string { return "VAULT_TOKEN=" + vault() + " vault kv get secret/" + w() },
		func() string { return "vault login " + vault() },
		func() string { return "export TWILIO_API_KEY=" + twilio() + " TWILIO_AUTH_TOKEN=" + m(hex32()) },
		func() string {
			return "curl -X POST https://api.twilio.com/2010-04-01/Accounts/AC" + hex32() + "/Messages.json -u " + twilio() + ":" + m(g.rnd(b62, 32))
		},
		func() string { return "SENDGRID_API_KEY=" + sendgrid() + " node mail.js" },
		func() string {
			return "curl --request POST --url https://api.sendgrid.com/v3/mail/send --header 'Authorization: Bearer " + sendgrid() + "'"
		},
		func() string {
			return "curl -s --user 'api:" + mailgun() + "' https://api.mailgun.net/v3/mg.example.com/messages"
		},
		func() string { return "heroku config:set API_SECRET=" + m(g.rnd(b62, 32)) + " -a " + w() },
		func() string { return "HEROKU_API_KEY=" + heroku() + " heroku apps" },
		func() string { return "doctl auth init --access-token " + do() },
		func() string { return "export DIGITALOCEAN_TOKEN=" + do() },
		func() string {
			return "curl -H 'X-Shopify-Access-Token: " + shopify() + "' https://acme.myshopify.com/admin/api/2024-01/shop.json"
		},
		func() string {
			return "az storage blob upload --connection-string 'DefaultEndpointsProtocol=https;AccountName=acme" + w() + ";AccountKey=" + azureKey() + ";EndpointSuffix=core.windows.net' -f a.txt -c data"
		},
		func() string {
			return "export AZURE_STORAGE_CONNECTION_STRING=\"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + azureKey() + ";EndpointSuffix=core.windows.net\""
		},
		func() string { return "az storage container list --account-name acme --account-key " + azureKey() },
		func() string {
			return "curl 'https://acme.blob.core.windows.net/data/f.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2025-01-01T00:00:00Z&sig=" + m(g.rnd(b62, 43)+"%3D") + "'"
		},
		func() string { return "curl -H \"Authorization: Bearer " + jwt() + "\" http://localhost:8080/api/me" },
		func() string { return "export ID_TOKEN=" + jwt() },
		func() string { return "kubectl --token=" + jwt() + " get pods -n " + w() },
		func() string { return "echo '" + pem("RSA ") + "' > /tmp/key.pem" },
		func() string { return "printf '" + pem("") + "' | ssh-add -" },
		func() string { return "echo \"" + pem("OPENSSH ") + "\" > ~/.ssh/id_ed25519" },
		func() string { return "psql postgresql://app:" + m(pw()) + "@" + g.host() + ":5432/" + w() },
		func() string {
			return "DATABASE_URL=postgres://admin:" + m(pw()) + "@" + g.host() + "/app npm run migrate"
		},
		func() string { return "mongosh 'mongodb+srv://root:" + m(pw()) + "@cluster0.ab1cd.mongodb.net/test'" },
		func() string { return "redis-cli -u redis://default:" + m(pw()) + "@" + g.host() + ":6379 ping" },
		func() string { return "export CELERY_BROKER_URL=amqp://guest:" + m(pw()) + "@rabbit:5672//" },
		func() string {
			return "go run . -dsn 'app:" + m(pw()) + "@tcp(" + g.host() + ":3306)/shop?parseTime=true'"
		},
		func() string {
			return "sqlcmd -S tcp:acme.database.windows.net -d db -U sa -P " + m(pw())
		},
		func() string {
			return "dotnet ef database update --connection \"Server=" + g.host() + ";Database=app;User Id=sa;Password=" + m(pw()) + ";\""
		},
		func() string { return "curl -u admin:" + m(pw()) + " http://localhost:9200/_cat/indices" },
		func() string { return "curl --user deploy:" + m(pw()) + " -T build.zip ftp://ftp.example.com/" },
		func() string {
			return "curl -H 'Authorization: Basic " + m(g.rnd(b62, 20)+"==") + "' https://registry.example.com/v2/_catalog"
		},
		func() string {
			return "wget --user=ci --password=" + m(pw()) + " https://repo.example.com/artifact.tgz"
		},
		func() string {
			return "curl -H 'Authorization: Token " + m(g.pick(hexl, 40)) + "' https://api.example.com/v1/items"
		},
		func() string {
			return "http GET https://api.example.com/me 'Authorization:Bearer " + m(g.rnd(b62, 40)) + "'"
		},
		func() string {
			return "curl -X POST https://api.example.com/login -H 'Content-Type: application/json' -d '{\"username\":\"admin\",\"password\":\"" + m(pw()) + "\"}'"
		},
		func() string {
			return "curl -d \"{\\\"api_key\\\": \\\"" + m(g.rnd(b62, 32)) + "\\\", \\\"q\\\": \\\"test\\\"}\" https://api.example.com"
		},
		func() string {
			return "aws secretsmanager put-secret-value --secret-id prod/db --secret-string '{\"password\":\"" + m(pw()) + "\"}'"
		},
		func() string {
			return "python -c 'import requests; requests.post(url, json={\"token\": \"" + m(g.rnd(b62, 32)) + "\"})'"
		},
		func() string { return "export DB_PASSWORD=" + m(pw()) },
		func() string { return "MYSQL_ROOT_PASSWORD=" + m(pw()) + " docker compose up -d" },
		func() string { return "docker run -d -e POSTGRES_PASSWORD=" + m(pw()) + " -p 5432:5432 postgres:16" },
		func() string { return "export JWT_SECRET=" + m(g.rnd(b62, 48)) },
		func() string { return "SECRET_KEY_BASE=" + m(g.pick(hexl, 128)) + " rails s" },
		func() string { return "export ENCRYPTION_KEY=" + m(b64(44)) },
		func() string { return "CLIENT_SECRET=" + m(g.rnd(b62+"~._-", 40)) + " ./run.sh" },
		func() string { return "export SENTRY_AUTH_TOKEN=" + m(g.pick(hexl, 64)) },
		func() string { return "export DATADOG_API_KEY=" + m(hex32()) },
		func() string { return "docker build --build-arg NPM_TOKEN=" + m(g.rnd(b62, 36)) + " -t app ." },
		func() string { return "helm install db bitnami/postgresql --set auth.password=" + m(pw()) },
		func() string {
			return "kubectl create secret generic " + w() + " --from-literal=api-key=" + m(g.rnd(b62, 32)) + " --from-literal=username=admin"
		},
		func() string { return "mysql -u root -p" + m(pw()) + " -h " + g.host() + " shop < dump.sql" },
		func() string { return "mysqldump -uroot -p" + m(pw()) + " --all-databases > all.sql" },
		func() string {
			return "sshpass -p '" + m(pw()) + "' ssh deploy@" + g.host() + " 'sudo systemctl restart app'"
		},
		func() string { return "sshpass -p " + m(pw()) + " scp build.tar.gz ci@" + g.host() + ":/srv/" },
		func() string { return "echo '" + m(pw()) + "' | docker login ghcr.io -u acme --password-stdin" },
		func() string { return "echo " + m(pw()) + " | sudo -S apt-get install -y jq" },
		func() string { return "redis-cli -h " + g.host() + " -a " + m(pw()) + " INFO" },
		func() string {
			return "ldapsearch -x -D 'cn=admin,dc=example,dc=com' -w " + m(pw()) + " -b 'dc=example,dc=com'"
		},
		func() string { return "zip -P " + m(pw()) + " backup.zip db.sql" },
		func() string { return "7z a -p" + m(pw()) + " archive.7z secrets/" },
		func() string { return "openssl enc -aes-256-cbc -in a.txt -out a.enc -pass pass:" + m(pw()) },
		func() string {
			return "keytool -importcert -file ca.crt -keystore ks.jks -storepass " + m(pw()) + " -noprompt"
		},
		func() string { return "gpg --batch --passphrase " + m(pw()) + " -d secrets.gpg" },
		func() string { return "psql \"host=" + g.host() + " user=app password=" + m(pw()) + " dbname=app\"" },
		func() string { return "PGPASSWORD=" + m(pw()) + " psql -h " + g.host() + " -U app -c 'select 1'" },
		func() string { return "smbclient //fs/share -U admin%" + m(pw()) },
		func() string { return "htpasswd -bc .htpasswd admin " + m(pw()) },
		func() string {
			return "curl -b 'sessionid=" + m(g.rnd(b62, 32)) + "' https://app.example.com/dashboard"
		},
		func() string {
			return "curl -H 'Cookie: session=" + m(g.rnd(b62, 40)) + "; csrftoken=" + m(g.rnd(b62, 32)) + "' https://app.example.com/api"
		},
		func() string { return "curl --cookie \"auth_token=" + m(g.rnd(b62, 40)) + "\" https://app.example.com" },
		func() string {
			return "curl -o report.csv 'https://acme.s3.amazonaws.com/r.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" + akia() + "%2F20240601%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20240601T000000Z&X-Amz-Expires=3600&X-Amz-SignedHeaders=host&X-Amz-Signature=" + m(g.pick(hexl, 64)) + "'"
		},
		func() string {
			return "wget 'https://storage.googleapis.com/acme/x.tar?X-Goog-Algorithm=GOOG4-RSA-SHA256&X-Goog-Signature=" + m(g.pick(hexl, 128)) + "'"
		},
		func() string {
			return "curl 'https://d111.cloudfront.net/v.mp4?Expires=1700000000&Signature=" + m(g.rnd(b62+"~-", 60)) + "&Key-Pair-Id=K2JCJMDEHXQW5F'"
		},
		func() string {
			return "curl 'https://api.example.com/export?format=csv&access_token=" + m(g.rnd(b62, 40)) + "'"
		},
		func() string { return "curl \"https://hooks.example.com/notify?token=" + m(g.rnd(b62, 32)) + "\"" },
		func() string { return "terraform apply -var \"db_password=" + m(pw()) + "\" -auto-approve" },
		func() string { return "TF_VAR_api_token=" + m(g.rnd(b62, 40)) + " terraform plan" },
		func() string { return "ansible-playbook site.yml --extra-vars 'ansible_become_pass=" + m(pw()) + "'" },
		func() string {
			return "git -c http.extraHeader=\"Authorization: Basic " + m(g.rnd(b62, 40)+"=") + "\" fetch"
		},
		func() string { return ghp() },
		func() string { return "token " + ghp() + " expired; rotating " + npm() },
		func() string { return ghp() + " " + glpat() + " " + slack() },
		func() string { return awsSecret() },
		func() string { return "echo " + m(g.rnd(b62, 40)) + " > .token" },
		func() string { return "gh secret set DEPLOY_KEY --body " + m(g.rnd(b62, 40)) },
		func() string { return "netlify deploy --auth " + m(g.rnd(b62+"_-", 43)) + " --prod" },
		func() string { return "vercel deploy --token " + m(g.rnd(b62, 24)) + " --prod" },
		func() string { return "HF_TOKEN=hf_" + m(g.rnd(b62, 34)) + " huggingface-cli whoami" },
		func() string { return "export GROQ_API_KEY=gsk_" + m(g.rnd(b62, 52)) },
		func() string { return "flyctl deploy --access-token fo1_" + m(g.rnd(b62+"_-", 43)) },
		func() string { return "export NOTION_TOKEN=secret_" + m(g.rnd(b62, 43)) },
		func() string {
			return "curl -H 'X-API-Key: " + m(g.rnd(b62, 32)) + "' https://api.example.com/v2/status"
		},
		func() string {
			return "curl -H \"apikey: " + m(g.rnd(b62, 40)) + "\" https://x.supabase.co/rest/v1/items"
		},
		func() string {
			return "curl -H 'Ocp-Apim-Subscription-Key: " + m(hex32()) + "' https://api.cognitive.microsoft.com"
		},
		func() string { return "datadog-agent run --api-key " + m(hex32()) },
		func() string { return "sentry-cli --auth-token " + m(g.pick(hexl, 64)) + " releases new 1.2.3" },
		func() string { return "./deploy.sh --password='" + m(pw()) + "' --env prod" },
		func() string {
			return "rclone config create s3 s3 access_key_id " + akia() + " secret_access_key " + awsSecret()
		},
		func() string { return "mc alias set minio http://localhost:9000 admin " + m(pw()) },
		func() string {
			return "python manage.py shell -c \"User.objects.create_superuser('admin', 'a@b.c', password='" + m(pw()) + "')\""
		},
		func() string { return "echo " + m(g.rnd(b62, 32)) + " | wrangler secret put API_KEY" },
		func() string { return "psql -c \"ALTER USER app WITH PASSWORD '" + m(pw()) + "'\"" },
		func() string { return "mysql -e \"CREATE USER 'app'@'%' IDENTIFIED BY '" + m(pw()) + "'\"" },
		func() string { return "echo 'machine api.example.com login bot password " + m(pw()) + "' >> ~/.netrc" },
		func() string { return "echo '" + m(pw()) + "' | passwd --stdin deploy" },
		func() string {
			return "kubeadm join 10.0.0.1:6443 --token " + m(g.pick(lower+digits, 6)+"."+g.pick(lower+digits, 16)) + " --discovery-token-ca-cert-hash sha256:" + g.pick(hexl, 64)
		},
		func() string {
			return "az login --service-principal -u http://ci -p " + m(g.rnd(b62+"~.-", 34)) + " --tenant " + g.uuid()
		},
		func() string { return "curl --oauth2-bearer " + m(g.rnd(b62, 40)) + " https://api.example.com/v1" },
		func() string {
			return "curl 'https://api.example.com/v1/data?apiKey=" + m(g.rnd(b62, 32)) + "&limit=10'"
		},
		func() string {
			return "curl -H 'Authorization: ApiKey " + m(g.rnd(b62, 40)+"==") + "' https://es.example.com:9200/_cluster/health"
		},
		func() string { return "java -Djavax.net.ssl.keyStorePassword=" + m(pw()) + " -jar app.jar" },
		func() string {
			return "curl -sSf -H \"Authorization: Bearer $(cat token)\" -H 'X-Auth-Token: " + m(g.rnd(b62, 32)) + "' https://x"
		},
	}
}

func (g gen) benignLines() []func() string {
	sha := func() string { return g.pick(hexl, 40) }
	sha256 := func() string { return g.pick(hexl, 64) }
	w := g.word
	return []func() string{
		func() string { return "git checkout " + sha() },
		func() string { return "git show " + sha()[:7] + " --stat" },
		func() string { return "git log --oneline " + sha()[:12] + ".." + sha()[:12] },
		func() string { return "git cherry-pick " + sha() },
		func() string { return "git diff HEAD~3 -- src/" + w() + "/handler.go" },
		func() string { return "docker pull " + w() + "@sha256:" + sha256() },
		func() string { return "docker run --rm ghcr.io/acme/" + w() + "@sha256:" + sha256() + " --help" },
		func() string { return "sha256sum dist/app.tar.gz # " + sha256() },
		func() string { return "echo '" + sha256() + "  app.tar.gz' | sha256sum -c" },
		func() string { return "kubectl get pod " + w() + "-7d9f8b6c5-" + g.pick(lower+digits, 5) + " -o yaml" },
		func() string { return "kubectl delete job " + w() + "-" + g.uuid() },
		func() string { return "aws s3 cp s3://acme-" + w() + "/" + g.uuid() + "/report.json ." },
		func() string { return "curl http://localhost:8080/api/orders/" + g.uuid() },
		func() string {
			return "go get github.com/acme/" + w() + "@v1." + g.pick(digits, 1) + "." + g.pick(digits, 2)
		},
		func() string {
			return "go get golang.org/x/sys@v0.0.0-2024" + g.pick(digits, 10) + "-" + g.pick(hexl, 12)
		},
		func() string { return "go mod download github.com/stretchr/testify@v1.9.0" },
		func() string {
			return "go test ./... -run '^TestParse" + g.one("RFC3339Timestamp", "ConfigWithEnvOverrides", "HTTP2Headers") + "$'"
		},
		func() string {
			return "go test -run 'TestServer/handles_" + w() + "_requests' -count=1 ./internal/server"
		},
		func() string { return "npm install @acme/" + w() + "-client@^2.3.1 --save" },
		func() string { return "npm i -D @types/node typescript eslint-plugin-react-hooks" },
		func() string { return "pip install 'requests==2.31.0' 'boto3>=1.34'" },
		func() string { return "cargo add serde --features derive" },
		func() string { return "echo $GITHUB_TOKEN | wc -c" },
		func() string { return "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/v1/me" },
		func() string { return "curl -H \"Authorization: Bearer ${API_KEY}\" https://api.example.com" },
		func() string { return "export GITHUB_TOKEN=$(gh auth token)" },
		func() string { return "export AWS_SECRET_ACCESS_KEY=\"$(aws configure get aws_secret_access_key)\"" },
		func() string { return "docker login -u \"$USER\" --password-stdin < ~/.docker/pass" },
		func() string { return "echo \"$CR_PAT\" | docker login ghcr.io -u acme --password-stdin" },
		func() string { return "curl -H 'Authorization: Bearer <your-token>' https://api.example.com" },
		func() string { return "export OPENAI_API_KEY=<your-api-key>" },
		func() string { return "export API_KEY=${{ secrets.API_KEY }}" },
		func() string { return "psql postgres://app:${DB_PASSWORD}@localhost:5432/app" },
		func() string { return "mysql -u root -p mydb" },
		func() string { return "ssh -p 2222 deploy@" + g.host() },
		func() string { return "docker run -p 8080:80 -u 1000:1000 nginx" },
		func() string {
			return "cat ~/.ssh/id_ed25519.pub # ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.rnd(b62+"+/", 43) + " dev@laptop"
		},
		func() string {
			return "echo 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ" + g.rnd(b62+"+/", 120) + " ci@runner' >> ~/.ssh/authorized_keys"
		},
		func() string {
			return "ls -la /home/dev/projects/" + w() + "/src/components/ButtonGroup/ButtonGroup.test.tsx"
		},
		func() string { return "find . -name '*.go' -path './internal/*' -newer go.mod" },
		func() string {
			return "cat /Users/dev/Library/Application Support/Code/User/workspaceStorage/" + g.pick(hexl, 32) + "/state.vscdb"
		},
		func() string { return "grep -rn 'password' config/ --include=*.yaml" },
		func() string { return "grep -r \"api_key:\" ." },
		func() string { return "rg -n 'TOKEN|SECRET' .env.example" },
		func() string { return "sed -i 's/TIMEOUT=30/TIMEOUT=60/' .env" },
		func() string { return "export TOKEN_TTL=3600 SESSION_TIMEOUT=30m" },
		func() string { return "export GOOGLE_APPLICATION_CREDENTIALS=/home/dev/.config/gcloud/sa.json" },
		func() string { return "docker build --secret id=npmrc,src=$HOME/.npmrc -t app ." },
		func() string { return "gh auth login --with-token < token.txt" },
		func() string { return "kubectl get secret " + w() + "-tls -o jsonpath='{.data.tls\\.crt}'" },
		func() string { return "kubectl create secret tls " + w() + " --cert=tls.crt --key=tls.key" },
		func() string { return "openssl req -new -newkey rsa:4096 -nodes -keyout server.key -out server.csr" },
		func() string { return "ssh-keygen -t ed25519 -C 'dev@example.com' -f ~/.ssh/id_ed25519" },
		func() string { return "ssh -i ~/.ssh/deploy_key -o StrictHostKeyChecking=no deploy@" + g.host() },
		func() string { return "terraform plan -var-file=prod.tfvars -out=tfplan" },
		func() string {
			return "helm upgrade --install " + w() + " ./chart --set image.tag=v2.4.1 --set replicaCount=3"
		},
		func() string { return "make -j8 build GOFLAGS=-mod=mod LDFLAGS='-s -w'" },
		func() string { return "CGO_ENABLED=0 GOOS=linux go build -trimpath -o bin/app ./cmd/app" },
		func() string {
			return "python -m pytest tests/test_" + w() + ".py -k 'test_token_refresh or test_login' -x"
		},
		func() string { return "pytest -k TestAuthTokenValidation --maxfail=1" },
		func() string { return "node scripts/migrate.js --env staging --dry-run" },
		func() string { return "echo aGVsbG8gd29ybGQK | base64 -d" },
		func() string { return "echo 'eyJuYW1lIjoiYWNtZSIsInZlcnNpb24iOiIxLjIuMyJ9' | base64 -d | jq ." },
		func() string { return "tar czf backup-$(date +%F).tgz /var/lib/" + w() },
		func() string { return "rsync -avz --delete ./dist/ deploy@" + g.host() + ":/srv/www/" },
		func() string { return "curl -fsSL https://get.docker.com | sh" },
		func() string { return "curl -s https://api.github.com/repos/acme/" + w() + "/commits/" + sha() },
		func() string {
			return "wget https://github.com/acme/" + w() + "/releases/download/v1.4.2/" + w() + "_linux_amd64.tar.gz"
		},
		func() string { return "jq '.dependencies | keys' package.json" },
		func() string {
			return "cat package-lock.json | grep -A2 '\"integrity\": \"sha512-" + g.rnd(b62+"+/", 86) + "==\"'"
		},
		func() string { return "grep h1:" + g.rnd(b62+"+/", 43) + "= go.sum" },
		func() string { return "echo 'github.com/acme/lib v1.2.3 h1:" + g.rnd(b62+"+/", 43) + "=' >> go.sum" },
		func() string { return "az account set --subscription " + g.uuid() },
		func() string { return "gcloud config set project acme-" + w() + "-" + g.pick(digits, 6) },
		func() string { return "aws sts get-caller-identity --profile " + w() + "-admin" },
		func() string { return "aws logs tail /aws/lambda/" + w() + "-handler --follow --since 10m" },
		func() string { return "aws dynamodb query --table-name Orders --key-condition-expression 'pk = :pk'" },
		func() string { return "vault kv get -field=password secret/" + w() },
		func() string { return "vault read -format=json auth/token/lookup-self" },
		func() string { return "gh secret list --repo acme/" + w() },
		func() string { return "gh secret set API_TOKEN < token.txt" },
		func() string { return "echo \"Use the --token flag to pass a token\"" },
		func() string { return "git commit -m 'Rotate the session cookie key and document the password policy'" },
		func() string { return "git commit -m 'fix(auth): handle expired bearer tokens gracefully'" },
		func() string { return "npx eslint src/ --ext .ts,.tsx --max-warnings=0" },
		func() string { return "yarn workspace @acme/" + w() + " run build" },
		func() string { return "pnpm --filter ./packages/" + w() + " test -- --coverage" },
		func() string { return "java -jar target/" + w() + "-1.0.0-SNAPSHOT.jar --spring.profiles.active=dev" },
		func() string { return "mvn -B -DskipTests -Dmaven.repo.local=.m2 package" },
		func() string { return "./gradlew :app:testDebugUnitTest --tests 'com.acme.auth.TokenRefresherTest'" },
		func() string { return "dotnet test --filter FullyQualifiedName~Acme.Auth.Tests.PasswordHasherTests" },
		func() string { return "systemctl status " + w() + ".service --no-pager" },
		func() string { return "journalctl -u " + w() + " --since '1 hour ago' | grep -i error" },
		func() string { return "ps aux | grep '[p]ython " + w() + "'" },
		func() string { return "lsof -i :5432" },
		func() string { return "export PATH=$HOME/go/bin:/usr/local/go/bin:$PATH" },
		func() string { return "export NODE_OPTIONS=--max-old-space-size=4096" },
		func() string { return "export TOKENIZERS_PARALLELISM=false" },
		func() string { return "export SSH_AUTH_SOCK=/run/user/1000/keyring/ssh" },
		func() string { return "export AWS_REGION=us-east-1 AWS_PROFILE=" + w() },
		func() string { return "export AWS_ACCESS_KEY_ID" },
		func() string { return "env | grep -i proxy" },
		func() string { return "printenv HOME PWD OLDPWD" },
		func() string {
			return "curl -X POST -H 'Content-Type: application/json' -d '{\"name\":\"" + w() + "\",\"replicas\":3}' http://localhost:8080/deploy"
		},
		func() string {
			return "curl -d '{\"username\":\"admin\",\"password\":\"$PASSWORD\"}' http://localhost/login"
		},
		func() string { return "curl -s 'https://api.example.com/search?q=" + w() + "&page=2&per_page=50'" },
		func() string {
			return "open 'https://console.aws.amazon.com/cloudwatch/home?region=us-east-1#logsV2:log-groups'"
		},
		func() string { return "git clone git@github.com:acme/" + w() + ".git" },
		func() string { return "git clone https://github.com/acme/" + w() + ".git" },
		func() string { return "git push origin feature/ABC-" + g.pick(digits, 4) + "-add-token-refresh" },
		func() string { return "docker compose -f docker-compose.prod.yml up -d --build " + w() },
		func() string {
			return "docker tag " + w() + ":latest 123456789012.dkr.ecr.us-east-1.amazonaws.com/" + w() + ":" + sha()[:8]
		},
		func() string { return "echo " + g.uuid() + " > .instance-id" },
		func() string { return "uuidgen | tr -d '-' | cut -c1-16" },
		func() string { return "cat /proc/cpuinfo | grep MHz" },
		func() string { return "ls node_modules/.pnpm/@babel+core@7.24.0_supports-color@9.4.0/node_modules" },
		func() string {
			return "rm -rf ~/.cache/go-build/" + g.pick(hexl, 2) + "/" + g.pick(hexl, 64) + "-d"
		},
		func() string {
			return "nix build .#" + w() + " && ls /nix/store/" + g.pick("0123456789abcdfghijklmnpqrsvwxyz", 32) + "-" + w()
		},
		func() string { return "ipfs cat bafybeig" + g.pick("abcdefghijklmnopqrstuvwxyz234567", 51) },
		func() string {
			return "grep -n 'func (s \\*Server) HandleOAuth2CallbackWithPKCEVerifier' internal/auth/*.go"
		},
		func() string { return "go doc net/http.Transport.TLSHandshakeTimeout" },
		func() string { return "tsc --noEmit -p tsconfig.build.json" },
		func() string { return "export VITE_API_BASE_URL=https://api.example.com/v2" },
		func() string { return "stripe trigger payment_intent.succeeded" },
		func() string { return "kubectl port-forward svc/" + w() + " 8080:80 -n " + w() },
		func() string {
			return "openssl s_client -connect " + g.host() + ":443 -servername example.com </dev/null"
		},
		func() string { return "openssl rand -hex 32" },
		func() string { return "python -c 'import secrets; print(secrets.token_urlsafe(32))'" },
		func() string { return "head -c 32 /dev/urandom | base64" },
		func() string { return "cat .env.example # API_KEY=your-api-key-here" },
		func() string { return "echo 'password: ********' >> notes.txt" },
		func() string { return "curl -u \"$USER:$PASS\" https://example.com" },
		func() string { return "curl -b cookies.txt -c cookies.txt https://example.com/login" },
		func() string { return "tmux new-session -d -s " + w() },
		func() string { return "aws ssm get-parameter --name /prod/" + w() + "/db-password --with-decryption" },
		func() string { return "sops -d secrets.enc.yaml > /dev/null && echo ok" },
		func() string { return "npm view react@18.3.1 dist.tarball" },
		func() string { return "bazel test //services/" + w() + ":all --test_output=errors" },
		func() string { return "ffmpeg -i input.mp4 -c:v libx264 -crf 23 -preset medium out.mp4" },
		func() string { return "convert logo.png -resize 64x64 favicon.ico" },
		func() string {
			return "aws secretsmanager describe-secret --secret-id arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/" + w() + "-AbCdEf"
		},
		func() string { return "export TF_VAR_db_password=\"${DB_PASSWORD}\"" },
		func() string {
			return "aws ec2 run-instances --image-id ami-0" + g.pick(hexl, 16) + " --instance-type t3.micro"
		},
		func() string {
			return "age -r age1" + g.pick("023456789acdefghjklmnpqrstuvwxyz", 58) + " secrets.txt > secrets.age"
		},
		func() string { return "gpg --recv-keys 0x" + strings.ToUpper(g.pick(hexl, 16)) },
		func() string { return "docker run -e POSTGRES_HOST_AUTH_METHOD=trust -e POSTGRES_DB=app postgres:16" },
		func() string {
			return "az storage blob list --account-name acme --container-name data --auth-mode login"
		},
		func() string {
			return "curl -X POST -d '{\"token_type\":\"bearer\",\"expires_in\":3600}' http://localhost:9000/mock"
		},
		func() string {
			return "kubectl create secret generic app --from-literal=username=admin --from-file=./tls.crt"
		},
		func() string { return "export NODE_AUTH_TOKEN=${{ secrets.NPM_TOKEN }}" },
	}
}

func main() {
	dir := flag.String("dir", ".", "output directory")
	n := flag.Int("n", 1000, "lines per file")
	seed := flag.Uint64("seed", 4, "random seed")
	flag.Parse()
	g := gen{r: rand.New(rand.NewPCG(*seed, 2026))}
	write := func(name string, tmpl []func() string) {
		var b strings.Builder
		for i := 0; i < *n; i++ {
			b.WriteString(tmpl[i%len(tmpl)]())
			b.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(b.String()), 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d lines from %d templates\n", name, *n, len(tmpl))
	}
	write("secrets.txt", g.secretLines())
	write("benign.txt", g.benignLines())
}
