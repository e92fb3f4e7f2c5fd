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

// loopScript is a build-file generator of the shape that costs the walk
// the most: options that give variables other values, then a pipeline
// into a subshell whose loops and case arms build lists from them.
const loopScript = `srcdir=.; out=Makefile.gen; mode=static; verbose=
while :; do
	case $1 in
	-s) shift; srcdir=$1; shift;;
	-o) shift; out=$1; shift;;
	-d) mode=shared; shift;;
	-v) verbose=yes; shift;;
	--) shift; break;;
	*) break;;
	esac
done
rules="$out.rules"
sed -e 's/#.*//' -e '/^$/d' "${1-Setup}" | (
	trap 'rm -f "$rules"' 0
	objs=; libs=; mods=; defs=
	while read line; do
		case $line in
		*=*) defs="$line $defs"; continue;;
		'*shared*') mode=shared; continue;;
		'*static*') mode=static; continue;;
		esac
		srcs=; cpps=; skip=
		for arg in $line; do
			case $skip in
			libs) libs="$libs $arg"; skip=; continue;;
			cpps) cpps="$cpps $arg"; skip=; continue;;
			esac
			case $arg in
			-I*|-D*) cpps="$cpps $arg";;
			-l*|*.a|*.so) libs="$libs $arg";;
			-Xlinker) libs="$libs $arg"; skip=libs;;
			-Xcompiler) skip=cpps;;
			*.c|*.cc) srcs="$srcs $arg";;
			*.o) srcs="$srcs $(basename $arg .o).c";;
			[a-z]*) mods="$mods $arg";;
			*) echo "bad word $arg" >&2; exit 1;;
			esac
		done
		for src in $srcs; do
			case $src in
			*.c) obj=$(basename $src .c).o; cc='$(CC)';;
			*.cc) obj=$(basename $src .cc).o; cc='$(CXX)';;
			esac
			case $src in
			*/*) obj="$srcdir/$(dirname $src)/$obj";;
			*) obj="$srcdir/$obj";;
			esac
			objs="$objs $obj"
			case $mode in
			shared) rule="$obj: $srcdir/$src; $cc $cpps -fPIC -c $srcdir/$src -o $obj";;
			*) rule="$obj: $srcdir/$src; $cc $cpps -c $srcdir/$src -o $obj";;
			esac
			[ -n "$verbose" ] && echo "$rule" >&2
			echo "$rule" >> "$rules"
		done
	done
	{ echo "OBJS=$objs"; echo "LIBS=$libs"; echo "MODS=$mods"; echo "DEFS=$defs"; cat "$rules"; } > "$out"
)
`

// BenchmarkCheckLoopScript judges loopScript: values that other paths
// leave, followed through loops inside a pipeline.
func BenchmarkCheckLoopScript(b *testing.B) {
	p := mustCompile(b, Default(), testEnv)
	r := Request{Script: loopScript}
	b.SetBytes(int64(len(r.Script)))
	b.ReportAllocs()
	for b.Loop() {
		if d := p.Check(r); d.Action != Allow {
			b.Fatal(d)
		}
	}
}
