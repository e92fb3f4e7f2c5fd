package redact

import (
	"strings"
	"testing"
)

// FuzzString checks that String never panics, is idempotent, and that a
// secret planted anywhere in arbitrary text never survives.
func FuzzString(f *testing.F) {
	for _, s := range []string{
		"", "export GITHUB_TOKEN=" + tGHP, `curl -H "Authorization: Bearer abc123def456" -u a:b u`,
		"psql postgres://app:pw@db/app", `{"password":"x"}`, "mysql -pX", "-----BEGIN PRIVATE KEY-----",
		"a=b=c", "::::", `\"token\":\"`, "echo x | docker login --password-stdin", "\xff\xfe=\x00:",
	} {
		f.Add(s, uint8(0))
	}
	secrets := []string{tGHP, tSlack, tNPM, tJWT, tOpenAI, tStripe, tGLPAT, tDocker}
	f.Fuzz(func(t *testing.T, s string, pos uint8) {
		out := String(s)
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n in    %q\n once  %q\n twice %q", s, out, again)
		}
		// Plant a provider token at a word boundary and check it is gone.
		secret := secrets[int(pos)%len(secrets)]
		i := int(pos) % (len(s) + 1)
		planted := s[:i] + " " + secret + " " + s[i:]
		tail := secret[len(secret)-16:]
		if got := String(planted); strings.Contains(got, tail) && !strings.Contains(s, tail) {
			t.Fatalf("planted secret survived:\n in  %q\n out %q", planted, got)
		}
	})
}
