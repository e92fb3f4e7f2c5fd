// Command aar-exec runs a command under a policy and inside the operating
// system's sandbox, and writes a redacted audit line for it. It is meant to
// be the shell of AI agents, Makefiles and CI steps: see the README.
package main

import (
	"os"

	"github.com/aar-agent/aar-exec/internal/phase"
)

func main() {
	phase.Mark("main")
	code := Main(os.Args)
	phase.Mark("exit")
	phase.Report()
	os.Exit(code)
}
