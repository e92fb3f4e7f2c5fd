package linux

import (
	"testing"

	"golang.org/x/sys/unix"
)

// runFilter interprets the few BPF instructions refusalFilter emits.
func runFilter(t *testing.T, prog []unix.SockFilter, arch, nr uint32, args [6]uint64) uint32 {
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
				acc = uint32(args[(in.K-16)/8])
			case in.K >= 16 && (in.K-16)%8 == 4:
				acc = uint32(args[(in.K-16)/8] >> 32)
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
				// bad meets every test of the refused form; each good
				// misses one of them.
				var bad [6]uint64
				var misses [][6]uint64
				put := func(args *[6]uint64, ck argCheck, v uint32) {
					if ck.high {
						args[ck.arg] |= uint64(v) << 32
					} else {
						args[ck.arg] |= uint64(v)
					}
				}
				checks := c.checks()
				for _, ck := range checks {
					put(&bad, ck, match(ck))
				}
				for i, ck := range checks {
					if ck.test == always {
						continue
					}
					var good [6]uint64
					for j, other := range checks {
						if j != i {
							put(&good, other, match(other))
						}
					}
					put(&good, ck, miss(ck))
					misses = append(misses, good)
				}
				if got := runFilter(t, prog, a.arch, c.nr, bad); got != denied {
					t.Errorf("arch %#x call %d with %#x: %#x, want EPERM", a.arch, c.nr, bad, got)
				}
				for _, good := range misses {
					if got := runFilter(t, prog, a.arch, c.nr, good); got != unix.SECCOMP_RET_ALLOW {
						t.Errorf("arch %#x call %d with %#x: %#x, want allow", a.arch, c.nr, good, got)
					}
				}
				// The same number from another architecture is another call.
				if got := runFilter(t, prog, 0x1234, c.nr, bad); got != unix.SECCOMP_RET_ALLOW {
					t.Errorf("unknown arch, call %d: %#x, want allow", c.nr, got)
				}
			}
			if got := runFilter(t, prog, a.arch, 1000, [6]uint64{0o4755, 0o4755, 0o4755, 1, 1, 1}); got != unix.SECCOMP_RET_ALLOW {
				t.Errorf("arch %#x other call: %#x, want allow", a.arch, got)
			}
			if a.nrBits != 0 {
				if got := runFilter(t, prog, a.arch, a.nrBits|1, [6]uint64{}); got != denied {
					t.Errorf("arch %#x call %#x: %#x, want EPERM", a.arch, a.nrBits|1, got)
				}
			}
		}
	}
}

// match returns an argument value the check holds for, miss one it does
// not hold for (and that no other refused form of the same call meets).
func match(ck argCheck) uint32 {
	switch ck.test {
	case anyBit:
		return ck.k | 0o755
	case notEqual:
		return ck.k + 1
	}
	return ck.k
}

func miss(ck argCheck) uint32 {
	switch ck.test {
	case anyBit:
		return 0o2775 &^ ck.k
	case notEqual:
		return ck.k
	}
	return ck.k + 0x100
}

// TestSupervisorRoutes checks the routes to the forking thread that
// Landlock leaves open, by arm64's numbers (built on every architecture).
func TestSupervisorRoutes(t *testing.T) {
	const tid = 4242
	var arm64 []refusedCall
	for _, a := range armCalls(tid) {
		if a.arch == unix.AUDIT_ARCH_AARCH64 {
			arm64 = a.calls
		}
	}
	prog := refusalFilter([]archCalls{{arch: unix.AUDIT_ARCH_AARCH64, calls: arm64}})
	denied := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	for _, c := range []struct {
		name string
		nr   uint32
		args [6]uint64
		want uint32
	}{
		// A /proc/TID directory is a pidfd for the thread's group.
		{"pidfd_send_signal flags 0", 424, [6]uint64{5, 9, 0, 0}, denied},
		{"F_SETOWN to the thread", 25, [6]uint64{3, unix.F_SETOWN, tid}, denied},
		{"F_SETOWN to another", 25, [6]uint64{3, unix.F_SETOWN, tid + 1}, unix.SECCOMP_RET_ALLOW},
		{"F_GETOWN", 25, [6]uint64{3, unix.F_GETOWN, tid}, unix.SECCOMP_RET_ALLOW},
		{"SIOCSPGRP", 29, [6]uint64{3, 0x8902, 0x7ffc0000}, denied},
		{"FIOSETOWN", 29, [6]uint64{3, 0x8901, 0x7ffc0000}, denied},
		{"prlimit read of another", 261, [6]uint64{77, unix.RLIMIT_NOFILE, 0, 0x7ffc0000}, unix.SECCOMP_RET_ALLOW},
		{"prlimit set of another", 261, [6]uint64{77, unix.RLIMIT_NOFILE, 0x7ffc0000}, denied},
		{"prlimit set, pointer's low half 0", 261, [6]uint64{77, unix.RLIMIT_NOFILE, 0x100000000}, denied},
		{"prlimit set of itself", 261, [6]uint64{0, unix.RLIMIT_NOFILE, 0x7ffc0000}, unix.SECCOMP_RET_ALLOW},
	} {
		if got := runFilter(t, prog, unix.AUDIT_ARCH_AARCH64, c.nr, c.args); got != c.want {
			t.Errorf("%s: %#x, want %#x", c.name, got, c.want)
		}
	}
}
