// Command launchbench measures launch overhead: it runs each command in
// turn, round after round, so drift and background load hit them all
// alike, and prints each one's median and its overhead over the first,
// and the median CPU time (user and system, the command's waited-for
// children included), which bounds how many launches two CPUs sustain.
//
//	launchbench -n 200 -- 'sh -c true' 'aar-exec -c true' ...
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/google/shlex"
)

func main() {
	rounds := flag.Int("n", 200, "rounds")
	warmup := flag.Int("w", 20, "warm-up rounds, not counted")
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
	if len(cmds) == 0 {
		fmt.Fprintln(os.Stderr, "usage: launchbench [-n rounds] 'cmd args' ...")
		os.Exit(2)
	}
	times := make([][]time.Duration, len(cmds))
	cpu := make([][]time.Duration, len(cmds))
	for r := 0; r < *warmup+*rounds; r++ {
		for i, argv := range cmds {
			c := exec.Command(argv[0], argv[1:]...)
			start := time.Now()
			if err := c.Run(); err != nil {
				fmt.Fprintf(os.Stderr, "launchbench: %s: %v\n", strings.Join(argv, " "), err)
				os.Exit(1)
			}
			if r >= *warmup {
				times[i] = append(times[i], time.Since(start))
				cpu[i] = append(cpu[i], c.ProcessState.UserTime()+c.ProcessState.SystemTime())
			}
		}
	}
	base := median(times[0])
	fmt.Printf("%-64s %9s %9s %9s %9s\n", "command", "median", "p90", "overhead", "cpu")
	for i, argv := range cmds {
		m := median(times[i])
		fmt.Printf("%-64s %7.2fms %7.2fms %+8.2fms %7.2fms\n", trim(strings.Join(argv, " "), 64),
			ms(m), ms(pct(times[i], 90)), ms(m-base), ms(median(cpu[i])))
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
