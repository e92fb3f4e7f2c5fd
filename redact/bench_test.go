package redact

import (
	"bufio"
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
)

// BenchmarkString measures throughput on a realistic mix of agent command
// lines: the whole corpus, nine benign lines for every line with a secret.
func BenchmarkString(b *testing.B) {
	lines := benchLines(b)
	total := setLineBytes(b, lines)
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

// setLineBytes makes the benchmark report throughput over lines as a
// text, newlines included, and returns that size.
func setLineBytes(b *testing.B, lines []string) int64 {
	var total int64
	for _, l := range lines {
		total += int64(len(l)) + 1
	}
	b.SetBytes(total)
	return total
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

// BenchmarkPasses measures each detector alone on the mix of
// BenchmarkString, to show where redaction time goes.
func BenchmarkPasses(b *testing.B) {
	lines := benchLines(b)
	var total int64
	for _, l := range lines {
		total += int64(len(l))
	}
	for _, p := range []struct {
		name string
		run  func(c *scrubber)
	}{
		{"providers", func(c *scrubber) { c.providers() }},
		{"pem", (*scrubber).pem},
		{"urls", (*scrubber).urls},
		{"pairs", (*scrubber).pairs},
		{"colons", (*scrubber).colons},
		{"words", (*scrubber).words},
		{"opaque", (*scrubber).opaque},
	} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(total)
			cpu := cpuTime()
			for b.Loop() {
				for _, l := range lines {
					c := scrubber{s: l}
					p.run(&c)
				}
			}
			reportCPU(b, cpu, total)
		})
	}
}

// BenchmarkByteLoop is a baseline for the figures above: one trivial
// classification per byte over the same input. On an idle machine it runs
// at well over 1 GB/s; divide by it to compare runs on loaded machines.
func BenchmarkByteLoop(b *testing.B) {
	lines := benchLines(b)
	total := setLineBytes(b, lines)
	cpu := cpuTime()
	n := 0
	for b.Loop() {
		for _, l := range lines {
			for i := 0; i < len(l); i++ {
				if isRunByte(l[i]) {
					n++
				}
			}
		}
	}
	reportCPU(b, cpu, total)
	if n < 0 {
		b.Fatal(n)
	}
}
