package linux

import (
	"testing"
)

// defaultDenied is the read-denial list linux mode uses for root with
// HOME=/root: the stores of issue 6 and the system files.
var defaultDenied = []string{
	"/root/.ssh", "/root/.aws", "/root/.azure", "/root/.config/gcloud", "/root/.gnupg", "/root/.kube",
	"/root/.docker/config.json", "/root/.netrc", "/root/.npmrc", "/root/.pypirc", "/root/.git-credentials",
	"/root/.config/gh", "/root/.password-store", "/root/.local/state/aar-exec",
	"/etc/shadow", "/etc/gshadow", "/etc/sudoers", "/etc/sudoers.d", "/dev",
}

// BenchmarkRuleset measures building the whole Landlock ruleset, with and
// without read denial: the launch cost issue 6 bounds.
func BenchmarkRuleset(b *testing.B) {
	abi := landlockABI()
	if abi < minABI {
		b.Skipf("Landlock ABI %d < %d", abi, minABI)
	}
	ws := b.TempDir()
	for _, bc := range []struct {
		name string
		deny []string
	}{{"no-read-denial", nil}, {"read-denial", defaultDenied}} {
		b.Run(bc.name, func(b *testing.B) {
			l := &layout{abi: abi, writable: []string{ws}, denyRead: bc.deny, devices: deviceFiles, deviceDir: []string{"/dev/pts"}}
			var rules int
			for b.Loop() {
				rs, err := newRuleset(l, nil)
				if err != nil {
					b.Fatal(err)
				}
				rules = rs.rules
				rs.close()
			}
			b.ReportMetric(float64(rules), "rules")
		})
	}
}
