// Command aar-exec runs a command under a policy and inside the operating
// system's sandbox, and writes a redacted audit line for it. It is meant to
// be the shell of AI agents, Makefiles and CI steps: see the README.
package main

import "os"

func main() { os.Exit(Main(os.Args)) }
