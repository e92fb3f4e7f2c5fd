package shellargs

import (
	"reflect"
	"strings"
	"testing"
)

// sep joins fuzzed argv elements into one string; it is not special to
// Parse, so elements may still hold NUL, newlines or invalid UTF-8.
const sep = "\x1e"

// FuzzParse checks that Parse never panics, and that whatever it accepts
// survives a round trip: parsing ShellArgv's output again, with its own
// argv[0], yields the same command, parameters and options, and the same
// ShellArgv.
func FuzzParse(f *testing.F) {
	for _, tc := range parseCases() {
		f.Add(tc.argv0, strings.Join(tc.args, sep))
	}
	f.Add("bash", strings.Join([]string{"-cO", "extglob", "-o", "pipefail", "--", "x"}, sep))
	f.Add("-sh", "-")
	f.Add("aar-exec", "--env"+sep+"--")
	f.Fuzz(func(t *testing.T, argv0, joined string) {
		var args []string
		if joined != "" {
			args = strings.Split(joined, sep)
		}
		inv, err := Parse(argv0, args, testOwn)
		if err != nil {
			if _, ok := err.(*UsageError); !ok {
				t.Fatalf("error %v is a %T", err, err)
			}
			return
		}
		argv := inv.ShellArgv("/bin/bash")
		if inv.Argv != nil || inv.Help || inv.Version {
			if argv != nil {
				t.Fatalf("ShellArgv = %q for an invocation that runs no shell", argv)
			}
			return
		}
		again, err := Parse(argv[0], argv[1:], testOwn)
		if err != nil {
			t.Fatalf("Parse(%q) accepted, but its ShellArgv %q fails: %v", args, argv, err)
		}
		if (inv.Command == nil) != (again.Command == nil) ||
			inv.Command != nil && *inv.Command != *again.Command {
			t.Fatalf("command %q became %q through %q", deref(inv.Command), deref(again.Command), argv)
		}
		if !reflect.DeepEqual(inv.Params, again.Params) {
			t.Fatalf("params %q became %q through %q", inv.Params, again.Params, argv)
		}
		if inv.Script != again.Script || inv.Stdin != again.Stdin ||
			!reflect.DeepEqual(inv.Options, again.Options) ||
			!reflect.DeepEqual(inv.LongOptions, again.LongOptions) ||
			inv.Interactive != again.Interactive || inv.Login != again.Login {
			t.Fatalf("%+v\nbecame %+v\nthrough %q", inv, again, argv)
		}
		if argv2 := again.ShellArgv("/bin/bash"); !reflect.DeepEqual(argv, argv2) {
			t.Fatalf("ShellArgv is not stable: %q then %q", argv, argv2)
		}
	})
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func BenchmarkParse(b *testing.B) {
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"claude", []string{"-c", "-l", "source /tmp/snap.sh && eval 'go test ./...' < /dev/null && pwd -P >| /tmp/claude-1234-cwd"}},
		{"make", []string{"-eu", "-o", "pipefail", "-c", "cc -o prog main.c"}},
		{"gha", []string{"--workspace", "/w", "--noprofile", "--norc", "-e", "-o", "pipefail", "/tmp/run/1b2c.sh"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				inv, err := Parse("bash", bc.args, testOwn)
				if err != nil {
					b.Fatal(err)
				}
				_ = inv.ShellArgv("/bin/bash")
			}
		})
	}
}
