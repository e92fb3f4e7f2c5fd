package linux

import (
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter interprets the few BPF instructions refusalFilter emits.
func runFilter(t *testing.T, prog []unix.SockFilter, arch, nr uint32, args [6]uint32) uint32 {
	t.Helper()
	var acc uint32
	for pc := 0; pc < len(prog); pc++ {
		in := prog[pc]
		switch in.Code {
		case unix.BPF_LD | unix.BPF_W | unix.BPF_ABS:
			switch {
			case in.K == 0:
				acc = nr
			case in.K == 4:
				acc = arch
			case in.K >= 16 && (in.K-16)%8 == 0:
				acc = args[(in.K-16)/8]
			default:
				t.Fatalf("load from offset %d", in.K)
			}
		case unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K:
			if acc == in.K {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K:
			if acc&in.K != 0 {
				pc += int(in.Jt)
			} else {
				pc += int(in.Jf)
			}
		case unix.BPF_RET | unix.BPF_K:
			return in.K
		default:
			t.Fatalf("instruction %#x", in.Code)
		}
	}
	t.Fatal("fell off the end")
	return 0
}

func TestRefusalFilter(t *testing.T) {
	const tid = 4242
	denied := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	for _, tables := range [][]archCalls{refusedCalls(tid), armCalls(tid)} {
		prog := refusalFilter(tables)
		for _, a := range tables {
			for _, c := range a.calls {
				var bad, good [6]uint32
				switch c.test {
				case anyBit:
					bad[c.arg], good[c.arg] = c.k|0o755, 0o2775&^c.k
				case equal:
					bad[c.arg], good[c.arg] = c.k, c.k+1
				case notEqual:
					bad[c.arg], good[c.arg] = c.k+1, c.k
				}
				if got := runFilter(t, prog, a.arch, c.nr, bad); got != denied {
					t.Errorf("arch %#x call %d with %#x: %#x, want EPERM", a.arch, c.nr, bad[c.arg], got)
				}
				if got := runFilter(t, prog, a.arch, c.nr, good); got != unix.SECCOMP_RET_ALLOW {
					t.Errorf("arch %#x call %d with %#x: %#x, want allow", a.arch, c.nr, good[c.arg], got)
				}
				// The same number from another architecture is another call.
				if got := runFilter(t, prog, 0x1234, c.nr, bad); got != unix.SECCOMP_RET_ALLOW {
					t.Errorf("unknown arch, call %d: %#x, want allow", c.nr, got)
				}
			}
			if got := runFilter(t, prog, a.arch, 1000, [6]uint32{0o4755, 0o4755, 0o4755, 1, 1, 1}); got != unix.SECCOMP_RET_ALLOW {
				t.Errorf("arch %#x other call: %#x, want allow", a.arch, got)
			}
			if a.nrBits != 0 {
				if got := runFilter(t, prog, a.arch, a.nrBits|1, [6]uint32{}); got != denied {
					t.Errorf("arch %#x call %#x: %#x, want EPERM", a.arch, a.nrBits|1, got)
				}
			}
		}
	}
}
