package shellargs_test

import (
	"fmt"

	"github.com/aar-agent/aar-exec/shellargs"
)

// own is how the CLI tells Parse about its own flags.
func own(name string) (isOwn, takesValue bool) {
	switch name {
	case "workspace", "mode":
		return true, true
	case "best-effort":
		return true, false
	}
	return false, false
}

func ExampleParse() {
	// Claude Code's Bash tool, with aar-exec installed as bash.
	inv, err := shellargs.Parse("/opt/aar/bash", []string{"--workspace", "/src", "-c", "-l", "go test ./..."}, own)
	if err != nil {
		fmt.Println("aar-exec:", err)
		return
	}
	fmt.Printf("own flags: %q\n", inv.Own)
	fmt.Printf("policy checks: %q\n", *inv.Command)
	fmt.Printf("bash runs: %q\n", inv.ShellArgv("/bin/bash"))
	// Output:
	// own flags: ["--workspace=/src"]
	// policy checks: "go test ./..."
	// bash runs: ["bash" "-l" "-c" "--" "go test ./..."]
}

func ExampleParse_errors() {
	for _, args := range [][]string{
		{"-c"},
		{"-l", "--norc", "-c", "true"},
		{"-o", "pipefial", "-c", "true"},
	} {
		_, err := shellargs.Parse("aar-exec", args, own)
		fmt.Println("aar-exec:", err)
	}
	// Output:
	// aar-exec: "-c": option requires an argument; put the command string after the options, e.g. -c 'echo hi'
	// aar-exec: "--norc": bash's long options must come before its short options; move it before the first short option, as bash requires
	// aar-exec: "pipefial": invalid -o option name; use a name that bash's set -o lists, such as pipefail, errexit or nounset
}

func ExampleInvocation_ShellArgv() {
	// GitHub Actions' bash step, then Docker's SHELL ["aar-exec", "-cex"].
	for _, args := range [][]string{
		{"--noprofile", "--norc", "-e", "-o", "pipefail", "/run/step.sh"},
		{"-cex", "apt-get update"},
	} {
		inv, _ := shellargs.Parse("aar-exec", args, own)
		fmt.Printf("%q\n", inv.ShellArgv("/usr/bin/bash"))
	}
	// Output:
	// ["bash" "--noprofile" "--norc" "-e" "-o" "pipefail" "--" "/run/step.sh"]
	// ["bash" "-e" "-x" "-c" "--" "apt-get update"]
}
