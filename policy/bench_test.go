package policy

import (
	"fmt"
	"strings"
	"testing"
)

// typical is a 100-byte command of the kind an agent sends.
const typical = `cd /home/u/proj && go test ./... 2>&1 | tee /tmp/test.log | grep -v '^ok' | head -n 50 || true`

func BenchmarkCheckTypical(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	r := Request{Script: typical}
	b.SetBytes(int64(len(typical)))
	b.ReportAllocs()
	for b.Loop() {
		if d := p.Check(r); d.Action != Allow {
			b.Fatal(d)
		}
	}
}

// bigScript repeats a mixed script up to n bytes.
func bigScript(n int) string {
	const unit = "if [ -f go.mod ]; then go vet ./... | grep -v x > /tmp/out.txt; fi\n" +
		"for f in a b c; do echo \"$f\" && cat \"$HOME/proj/$f.go\"; done\n" +
		"x=$(git rev-parse HEAD); echo ${x:-none} >> build.log\n"
	return strings.Repeat(unit, n/len(unit)+1)[:n/len(unit)*len(unit)]
}

func BenchmarkCheck1MB(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	r := Request{Script: bigScript(1 << 20)}
	b.SetBytes(int64(len(r.Script)))
	for b.Loop() {
		if d := p.Check(r); d.Action != Allow {
			b.Fatal(d)
		}
	}
}

// BenchmarkCheck1MBSerial is BenchmarkCheck1MB with the parse and the
// walk on one goroutine, as on a machine with one CPU.
func BenchmarkCheck1MBSerial(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	r := Request{Script: bigScript(1 << 20)}
	b.SetBytes(int64(len(r.Script)))
	for b.Loop() {
		if d := p.check(r, 0); d.Action != Allow {
			b.Fatal(d)
		}
	}
}

// BenchmarkCheckSize shows that the cost grows linearly with the input.
func BenchmarkCheckSize(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	for _, n := range []int{64 << 10, 256 << 10, 1 << 20, 4<<20 - 1024} {
		r := Request{Script: bigScript(n)}
		b.Run(fmt.Sprintf("%dKiB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(len(r.Script)))
			for b.Loop() {
				p.Check(r)
			}
		})
	}
}

func BenchmarkCompile(b *testing.B) {
	c := Default()
	for b.Loop() {
		if _, err := Compile(c, testEnv); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck1MBHeredoc is a 1 MB command of another common shape: an
// agent writing a file through a here-document.
func BenchmarkCheck1MBHeredoc(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	line := "func f() { return fmt.Sprintf(\"%d items in $HOME\", n) } // generated line of code\n"
	body := strings.Repeat(line, (1<<20)/len(line))
	r := Request{Script: "cat > gen.go <<'EOF'\n" + body + "EOF\ngo build ./..."}
	b.SetBytes(int64(len(r.Script)))
	for b.Loop() {
		if d := p.Check(r); d.Action != Allow {
			b.Fatal(d)
		}
	}
}
