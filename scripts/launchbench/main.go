// Command launchbench measures launch overhead: it runs each command in
// turn, round after round, so drift and background load hit them all
// alike, and prints each one's median and its overhead over the first,
// and the median CPU time (user and system, the command's waited-for
// children included), which bounds how many launches two CPUs sustain.
//
//	launchbench -n 200 -- 'sh -c true' 'aar-exec -c true' ...
//
// Leading NAME=value words set the command's environment, as in sh:
// 'GOMAXPROCS=1 aar-exec -c true'.
//
// With -phases, it also reads the phase marks an aar-exec built with
// -tags phasetrace writes to stderr, and prints for each phase the median
// time since the fork and the median step from the mark before it.
package main

import (
	"bytes"
	"cmp"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/shlex"
)

func main() {
	rounds := flag.Int("n", 200, "rounds")
	warmup := flag.Int("w", 20, "warm-up rounds, not counted")
	withPhases := flag.Bool("phases", false, "read and summarise phase marks from stderr")
	flag.Parse()
	var cmds [][]string
	for _, c := range flag.Args() {
		argv, err := shlex.Split(c)
		if err != nil || len(argv) == 0 {
			fmt.Fprintf(os.Stderr, "launchbench: cannot split %q\n", c)
			os.Exit(2)
		}
		cmds = append(cmds, argv)
	}
	envs := make([][]string, len(cmds))
	for i, argv := range cmds {
		for len(argv) > 1 && isAssignment(argv[0]) {
			envs[i] = append(envs[i], argv[0])
			argv = argv[1:]
		}
		cmds[i] = argv
	}
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: launchbench [-n rounds] 'cmd args' ...")
		os.Exit(2)
	}
	times := make([][]time.Duration, len(cmds))
	cpu := make([][]time.Duration, len(cmds))
	marks := make([]phases, len(cmds))
	for i := range marks {
		marks[i] = phases{}
	}
	for r := 0; r < *warmup+*rounds; r++ {
		for i, argv := range cmds {
			c := exec.Command(argv[0], argv[1:]...)
			if envs[i] != nil {
				c.Env = append(os.Environ(), envs[i]...)
			}
			var stderr bytes.Buffer
			if *withPhases {
				c.Stderr = &stderr
			}
			start := time.Now()
			if err := c.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "launchbench: %s: %v\n%s", strings.Join(argv, " "), err, stderr.Bytes())
				os.Exit(1)
			}
			end := time.Now()
			if r >= *warmup {
				times[i] = append(times[i], end.Sub(start))
				cpu[i] = append(cpu[i], c.ProcessState.UserTime()+c.ProcessState.SystemTime())
				if *withPhases {
					marks[i].add(start, end, stderr.String())
				}
			}
		}
	}
	base := median(times[0])
	fmt.Printf("%-64s %9s %9s %9s %9s\n", "command", "median", "p90", "overhead", "cpu")
	for i, argv := range cmds {
		m := median(times[i])
		fmt.Printf("%-64s %7.2fms %7.2fms %+8.2fms %7.2fms\n", trim(strings.Join(slices.Concat(envs[i], argv), " "), 64),
			ms(m), ms(pct(times[i], 90)), ms(m-base), ms(median(cpu[i])))
	}
	for i, argv := range cmds {
		if len(marks[i]) > 0 {
			fmt.Printf("\nphases of %s\n", trim(strings.Join(slices.Concat(envs[i], argv), " "), 64))
			marks[i].print()
		}
	}
}

// phases holds, for each phase name, the times since the fork at which
// the runs reached it and the steps from the mark before.
type phases map[string]*phase

type phase struct{ at, step []time.Duration }

// add takes one run's "aar-exec-phase NANOS NAME" lines. Marks from
// different goroutines interleave, so a step is measured from whichever
// mark came just before in that run.
func (ps phases) add(start, end time.Time, stderr string) {
	type mark struct {
		at   int64
		name string
	}
	var ms []mark
	for _, line := range strings.Split(stderr, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "aar-exec-phase" {
			continue
		}
		if at, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			ms = append(ms, mark{at, f[2]})
		}
	}
	if len(ms) == 0 {
		return
	}
	ms = append(ms, mark{end.UnixNano(), "(exited)"})
	slices.SortStableFunc(ms, func(a, b mark) int { return cmp.Compare(a.at, b.at) })
	prev := start.UnixNano()
	for _, m := range ms {
		p := ps[m.name]
		if p == nil {
			p = &phase{}
			ps[m.name] = p
		}
		p.at = append(p.at, time.Duration(m.at-start.UnixNano()))
		p.step = append(p.step, time.Duration(m.at-prev))
		prev = m.at
	}
}

func (ps phases) print() {
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(median(ps[a].at), median(ps[b].at)) })
	fmt.Printf("  %-16s %9s %9s\n", "reached", "at", "step")
	for _, n := range names {
		fmt.Printf("  %-16s %7.2fms %7.2fms\n", n, ms(median(ps[n].at)), ms(median(ps[n].step)))
	}
}

func median(d []time.Duration) time.Duration { return pct(d, 50) }

func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[(len(s)-1)*p/100]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func trim(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// isAssignment reports whether word is a NAME=value environment setting.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || i > 0 && '0' <= r && r <= '9') {
			return false
		}
	}
	return true
}
