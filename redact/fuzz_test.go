package redact

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
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

// BenchmarkString measures throughput on a realistic mix of agent command
// lines: the whole corpus, nine benign lines for every line with a secret.
func BenchmarkString(b *testing.B) {
	lines := benchLines(b)
	var total int64
	for _, l := range lines {
		total += int64(len(l)) + 1
	}
	b.SetBytes(total)
	cpu := cpuTime()
	for b.Loop() {
		for _, l := range lines {
			_ = String(l)
		}
	}
	reportCPU(b, cpu, total)
}

// reportCPU adds throughput per CPU-second ("cpu-MB/s"), which stays
// meaningful when other processes load the machine and wall time does not.
func reportCPU(b *testing.B, start time.Duration, bytesPerOp int64) {
	used := cpuTime() - start
	if start == 0 || used <= 0 {
		return
	}
	b.ReportMetric(float64(bytesPerOp)*float64(b.N)/used.Seconds()/1e6, "cpu-MB/s")
}

// BenchmarkFilter measures `aar-exec redact` on the same mix.
func BenchmarkFilter(b *testing.B) {
	lines := benchLines(b)
	in := strings.Join(lines, "\n") + "\n"
	b.SetBytes(int64(len(in)))
	var out bytes.Buffer
	cpu := cpuTime()
	for b.Loop() {
		out.Reset()
		if err := Filter(&out, strings.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu, int64(len(in)))
}

func benchLines(b *testing.B) []string {
	read := func(name string) []string {
		f, err := os.Open("testdata/" + name)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		var out []string
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			out = append(out, parseMarked(b, sc.Text()).text)
		}
		return out
	}
	secrets, benign := read("secrets.txt"), read("benign.txt")
	var lines []string
	for i, l := range benign {
		lines = append(lines, l)
		if i%9 == 0 {
			lines = append(lines, secrets[(i/9)%len(secrets)])
		}
	}
	return lines
}
