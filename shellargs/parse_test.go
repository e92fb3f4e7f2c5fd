package shellargs

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// testOwn stands for the CLI's own flags.
func testOwn(name string) (isOwn, takesValue bool) {
	switch name {
	case "workspace", "mode", "config", "audit-log", "timeout", "allow-write", "env":
		return true, true
	case "best-effort", "read-only", "quiet":
		return true, false
	}
	return false, false
}

// A parseCase is one argv a client hands its shell, with the canonical argv
// ShellArgv must build for /bin/bash. The same table drives TestParse, the
// comparison with real bash in TestConfirmWithBash, and the fuzz seeds.
type parseCase struct {
	name  string
	argv0 string   // "" means "aar-exec"
	args  []string // as the client passes them
	want  []string // ShellArgv("/bin/bash"); nil for the argv form and help
	own   []string // Invocation.Own
	argv  []string // Invocation.Argv
	// notBash marks argv that real bash cannot run as given (aar-exec's
	// own flags or argv form), so TestConfirmWithBash skips it.
	notBash bool
}

// probe prints what bash made of its arguments. It has no pipeline, whose
// two sides would race to write their -x traces.
const probe = `echo "0=$0 args=$* flags=$-"; o=$(set -o); grep -E '^(pipefail|errexit|nounset|posix|noglob|xtrace)[[:space:]]' <<<"$o" || :; shopt login_shell extglob || :`

func parseCases() []parseCase {
	P := probe
	return []parseCase{
		// -c in every position clients use.
		{name: "make", args: []string{"-c", P}, want: []string{"bash", "-c", "--", P}},
		{name: "make shellflags", args: []string{"-eu", "-o", "pipefail", "-c", P},
			want: []string{"bash", "-e", "-u", "-o", "pipefail", "-c", "--", P}},
		{name: "make posix", args: []string{"-ec", P}, want: []string{"bash", "-e", "-c", "--", P}},
		{name: "claude", args: []string{"-c", "-l", P}, want: []string{"bash", "-l", "-c", "--", P}},
		{name: "codex", args: []string{"-lc", P}, want: []string{"bash", "-l", "-c", "--", P}},
		{name: "continue", args: []string{"-l", "-c", P}, want: []string{"bash", "-l", "-c", "--", P}},
		{name: "goose probe", args: []string{"-l", "-i", "-c", P}, want: []string{"bash", "-i", "-l", "-c", "--", P}},
		{name: "aider", args: []string{"-ic", P}, want: []string{"bash", "-i", "-c", "--", P}},
		{name: "docker cex", args: []string{"-cex", P}, want: []string{"bash", "-e", "-x", "-c", "--", P}},
		{name: "e o pipefail c", args: []string{"-e", "-o", "pipefail", "-c", P},
			want: []string{"bash", "-e", "-o", "pipefail", "-c", "--", P}},
		{name: "co pipefail", args: []string{"-co", "pipefail", P}, want: []string{"bash", "-o", "pipefail", "-c", "--", P}},
		{name: "c dashdash", args: []string{"-c", "--", P, "zero"}, want: []string{"bash", "-c", "--", P, "zero"}},
		{name: "python params", args: []string{"-c", P, "zero", "one", "two words"},
			want: []string{"bash", "-c", "--", P, "zero", "one", "two words"}},
		{name: "params look like options", args: []string{"-c", P, "-e", "--workspace", "-x"},
			want: []string{"bash", "-c", "--", P, "-e", "--workspace", "-x"}},
		{name: "string starts with plus", args: []string{"-c", "--", "+x"}, want: []string{"bash", "-c", "--", "+x"}},
		{name: "two o in a bundle", args: []string{"-oo", "pipefail", "nounset", "-c", P},
			want: []string{"bash", "-o", "pipefail", "-o", "nounset", "-c", "--", P}},
		{name: "plus o", args: []string{"-o", "pipefail", "+o", "pipefail", "-c", P},
			want: []string{"bash", "-o", "pipefail", "+o", "pipefail", "-c", "--", P}},
		{name: "shopt", args: []string{"-O", "extglob", "-c", P}, want: []string{"bash", "-O", "extglob", "-c", "--", P}},
		{name: "shopt in bundle", args: []string{"-cO", "extglob", P}, want: []string{"bash", "-O", "extglob", "-c", "--", P}},
		{name: "plus shopt", args: []string{"-O", "extglob", "+O", "extglob", "-c", P},
			want: []string{"bash", "-O", "extglob", "+O", "extglob", "-c", "--", P}},
		{name: "many flags", args: []string{"-abfhkmptuvBCEHPT", "-c", P},
			want: []string{"bash", "-a", "-b", "-f", "-h", "-k", "-m", "-p", "-t", "-u", "-v", "-B", "-C", "-E", "-H", "-P", "-T", "-c", "--", P}},
		{name: "plus flags", args: []string{"+hB", "-c", P}, want: []string{"bash", "+h", "+B", "-c", "--", P}},
		{name: "noexec", args: []string{"-nc", P}, want: []string{"bash", "-n", "-c", "--", P}},
		{name: "restricted", args: []string{"-r", "-c", P}, want: []string{"bash", "-r", "-c", "--", P}},
		// Long options.
		{name: "long options", args: []string{"--noprofile", "--norc", "--posix", "-c", P},
			want: []string{"bash", "--noprofile", "--norc", "--posix", "-c", "--", P}},
		{name: "long login", args: []string{"--login", "-c", P}, want: []string{"bash", "-l", "-c", "--", P}},
		{name: "single dash long", args: []string{"-login", "-norc", "-c", P},
			want: []string{"bash", "--norc", "-l", "-c", "--", P}},
		{name: "init-file", args: []string{"--init-file", "/dev/null", "--verbose", "--noediting", "--restricted", "-c", P},
			want: []string{"bash", "--rcfile", "/dev/null", "--verbose", "--noediting", "--restricted", "-c", "--", P}},
		// Script files.
		{name: "gha bash", args: []string{"--noprofile", "--norc", "-e", "-o", "pipefail", "script.sh", "a"},
			want: []string{"bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "--", "script.sh", "a"}},
		{name: "jenkins", args: []string{"-xe", "script.sh"}, want: []string{"bash", "-x", "-e", "--", "script.sh"}},
		{name: "script params", args: []string{"script.sh", "-e", "x"}, want: []string{"bash", "--", "script.sh", "-e", "x"}},
		{name: "single dash ends options", args: []string{"-e", "-", "script.sh"}, want: []string{"bash", "-e", "--", "script.sh"}},
		{name: "bash dashdash -c is a file", argv0: "bash", args: []string{"--", "-c"}, want: []string{"bash", "--", "-c"}},
		{name: "dashdash after options is bash's", args: []string{"-e", "--", "-c", "x"}, want: []string{"bash", "-e", "--", "-c", "x"}},
		// Standard input.
		{name: "gitlab", argv0: "bash", args: []string{"-l"}, want: []string{"bash", "-l", "-s", "--"}},
		{name: "no args", args: nil, want: []string{"bash", "-s", "--"}},
		{name: "stdin params", args: []string{"-s", "a", "-b"}, want: []string{"bash", "-s", "--", "a", "-b"}},
		{name: "interactive stdin", args: []string{"-i"}, want: []string{"bash", "-i", "-s", "--"}},
		{name: "verbose stdin params", args: []string{"--verbose", "-s", "a"}, want: []string{"bash", "--verbose", "-s", "--", "a"}},
		{name: "onecmd stdin", args: []string{"-t"}, want: []string{"bash", "-t", "-s", "--"}},
		{name: "bash dashdash alone", argv0: "bash", args: []string{"--"}, want: []string{"bash", "-s", "--"}},
		{name: "su -", argv0: "-bash", args: nil, want: []string{"-bash", "-s", "--"}},
		{name: "su - c", argv0: "-bash", args: []string{"-c", P}, want: []string{"-bash", "-c", "--", P}},
		{name: "login both ways", argv0: "-sh", args: []string{"-lc", P}, want: []string{"-bash", "-l", "-c", "--", P}},
		{name: "path argv0", argv0: "/usr/local/bin/sh", args: []string{"-c", P}, want: []string{"bash", "-c", "--", P}},
		// aar-exec's own flags and argv form.
		{name: "own flags", args: []string{"--workspace", "/w", "--mode=linux", "--best-effort", "-c", P},
			want: []string{"bash", "-c", "--", P}, own: []string{"--workspace=/w", "--mode=linux", "--best-effort"}, notBash: true},
		{name: "own flags between options", args: []string{"--norc", "--timeout", "5s", "-e", "--quiet", "-c", P},
			want: []string{"bash", "--norc", "-e", "-c", "--", P}, own: []string{"--timeout=5s", "--quiet"}, notBash: true},
		{name: "own flags as bash", argv0: "bash", args: []string{"--workspace=/w", "-c", P},
			want: []string{"bash", "-c", "--", P}, own: []string{"--workspace=/w"}, notBash: true},
		{name: "own value looks like option", args: []string{"--env", "-c", "-c", P},
			want: []string{"bash", "-c", "--", P}, own: []string{"--env=-c"}, notBash: true},
		{name: "argv form", args: []string{"--workspace", "/w", "--", "make", "-j4", "--", "x"},
			own: []string{"--workspace=/w"}, argv: []string{"make", "-j4", "--", "x"}, notBash: true},
		{name: "argv form bare", args: []string{"--", "-c", "x"}, argv: []string{"-c", "x"}, notBash: true},
		{name: "help", args: []string{"--help", "-c", "x"}},
		{name: "version with own", args: []string{"--version", "--quiet", "--norc", "-q"}, own: []string{"--quiet"}, notBash: true},
	}
}

func TestParse(t *testing.T) {
	for _, tc := range parseCases() {
		t.Run(tc.name, func(t *testing.T) {
			argv0 := tc.argv0
			if argv0 == "" {
				argv0 = "aar-exec"
			}
			inv, err := Parse(argv0, tc.args, testOwn)
			if err != nil {
				t.Fatalf("Parse(%q, %q): %v", argv0, tc.args, err)
			}
			if got := inv.ShellArgv("/bin/bash"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ShellArgv:\n got %q\nwant %q", got, tc.want)
			}
			if !reflect.DeepEqual(inv.Own, tc.own) {
				t.Errorf("Own = %q, want %q", inv.Own, tc.own)
			}
			if !reflect.DeepEqual(inv.Argv, tc.argv) {
				t.Errorf("Argv = %q, want %q", inv.Argv, tc.argv)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	s := func(v string) *string { return &v }
	tests := []struct {
		name  string
		argv0 string
		args  []string
		want  Invocation
	}{
		{"command", "aar-exec", []string{"-lc", "echo hi", "zero", "one"},
			Invocation{Command: s("echo hi"), Login: true, LoginOption: true, Params: []string{"zero", "one"}}},
		{"script", "bash", []string{"-xe", "f.sh", "a"},
			Invocation{Script: "f.sh", Params: []string{"a"}, Options: []string{"-x", "-e"}}},
		{"no operands", "-bash", nil,
			Invocation{Stdin: true, NoOperands: true, Login: true, LoginArgv0: true, Params: []string{}}},
		{"explicit stdin no operands", "sh", []string{"-s"},
			Invocation{Stdin: true, NoOperands: true, Params: []string{}}},
		{"stdin with params", "sh", []string{"-is", "a"},
			Invocation{Stdin: true, Interactive: true, Params: []string{"a"}}},
		{"empty command", "sh", []string{"-c", ""},
			Invocation{Command: s(""), Params: []string{}}},
		{"help", "aar-exec", []string{"--norc", "--help", "--login", "-bogus-after-is-ignored-by-bash"},
			Invocation{Help: true, Login: true, LoginOption: true, LongOptions: []string{"--norc"}}},
		{"version stops at short options", "bash", []string{"--version", "-q", "-c"}, Invocation{Version: true}},
		{"windows argv0", `C:\tools\BASH.exe`, []string{"--", "x"}, Invocation{Script: "x", Params: []string{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Parse(tc.argv0, tc.args, testOwn)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", *got, tc.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		argv0 string
		args  []string
		want  string // part of the message
	}{
		{"c without string", "", []string{"-c"}, `"-c": option requires an argument; put the command string`},
		{"c dashdash without string", "", []string{"-c", "--"}, `"-c": option requires an argument`},
		{"c string is an option", "", []string{"-c", "+x"}, `"-c": option requires an argument`},
		{"unknown short", "", []string{"-q", "-c", "x"}, `"-q": invalid shell option; bash accepts`},
		{"unknown in bundle", "", []string{"-eqc", "x"}, `"-q": invalid shell option (in "-eqc")`},
		{"o without name", "", []string{"-e", "-o"}, `"-o": option requires an argument; give it an option name`},
		{"O without name", "", []string{"+O"}, `"+O": option requires an argument; give it a shopt name`},
		{"bad o name", "", []string{"-o", "pipefial", "-c", "x"}, `"pipefial": invalid -o option name`},
		{"bad O name", "", []string{"-O", "extglib", "-c", "x"}, `"extglib": invalid -O shell option name`},
		{"extdebug", "", []string{"-O", "extdebug", "-c", "x"}, `"extdebug": aar-exec does not pass -O extdebug on`},
		{"long after short", "", []string{"-l", "--norc", "-c", "x"}, `"--norc": bash's long options must come before its short options`},
		{"help after short", "", []string{"-e", "--help"}, `"--help": bash's long options must come before`},
		{"long with equals", "", []string{"--rcfile=x", "-i"}, `"--rcfile=x": bash takes no '=' in its long options; write --rcfile x as two words`},
		{"flag long with equals", "", []string{"--norc=1"}, `write --norc`},
		{"rcfile without file", "", []string{"--rcfile"}, `"--rcfile": option requires an argument`},
		{"unknown long", "", []string{"--frobnicate", "-c", "x"}, `"--frobnicate": unknown option`},
		{"debugger", "", []string{"--debugger", "-c", "x"}, `aar-exec does not pass this bash option on`},
		{"dump strings", "", []string{"-D", "-c", "x"}, `aar-exec does not pass -D on`},
		{"plus c", "", []string{"+c", "x"}, `"+c": +c has no meaning; write -c`},
		{"plus r", "", []string{"+r", "-c", "x"}, `restricted mode cannot be turned off`},
		{"bare plus", "", []string{"+", "-c", "x"}, `"+": empty option`},
		{"c and s", "", []string{"-sc", "x"}, `"-s": cannot be combined with -c`},
		{"own without value", "", []string{"--workspace"}, `"--workspace": flag needs a value`},
		{"own value not taken", "", []string{"--quiet=yes", "-c", "x"}, `this aar-exec flag takes no value; write --quiet`},
		{"argv form empty", "", []string{"--"}, `"--": no program after it`},
		{"argv form after own flag", "", []string{"--quiet", "--"}, `"--": no program after it`},
		{"empty script", "", []string{"-e", ""}, `empty script file name`},
		{"nul", "", []string{"-c", "echo a\x00b"}, `argument 2 contains a NUL byte`},
		{"nul argv0", "aar\x00", nil, `argument 0 contains a NUL byte`},
		{"nul in a long script", "", []string{"-c", strings.Repeat("echo hi; ", 1000) + "\x00"}, `"echo hi; echo hi; echo hi; echo hi; echo hi; echo ...": argument 2 contains a NUL byte`},
		{"long multibyte argument", "", []string{"-q" + strings.Repeat("é", 40)}, `"-q"`},
		{"invalid utf8", "", []string{"-c", "echo \xff"}, `argument 2 is not valid UTF-8`},
		{"huge", "", []string{"-c", strings.Repeat("x", MaxArgBytes)}, `more than the 8388608 accepted`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			argv0 := tc.argv0
			if argv0 == "" {
				argv0 = "aar-exec"
			}
			inv, err := Parse(argv0, tc.args, testOwn)
			if err == nil {
				t.Fatalf("Parse(%q) = %+v, want an error", tc.args, inv)
			}
			var ue *UsageError
			if !errors.As(err, &ue) {
				t.Errorf("error %v is a %T, want *UsageError", err, err)
			}
			msg := err.Error()
			if !strings.Contains(msg, tc.want) {
				t.Errorf("error:\n got %s\nwant it to contain %s", msg, tc.want)
			}
			if len(msg) > 400 {
				t.Errorf("error is %d bytes long", len(msg))
			}
			if msg != strings.ToLower(msg[:1])+msg[1:] || strings.HasSuffix(msg, ".") {
				t.Errorf("error %q is not lower case or ends with a period", msg)
			}
		})
	}
}

func TestParseNilOwn(t *testing.T) {
	if _, err := Parse("aar-exec", []string{"--workspace", "w", "-c", "x"}, nil); err == nil {
		t.Fatal("--workspace accepted without an Own")
	}
	inv, err := Parse("aar-exec", []string{"-c", "x"}, nil)
	if err != nil || inv.Command == nil || *inv.Command != "x" {
		t.Fatalf("Parse = %+v, %v", inv, err)
	}
}

func TestOwnCannotTakeBashNames(t *testing.T) {
	greedy := func(string) (bool, bool) { return true, false }
	inv, err := Parse("aar-exec", []string{"--login", "--norc", "--mine", "-c", "x"}, greedy)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(inv.Own, []string{"--mine"}) || !inv.LoginOption || !reflect.DeepEqual(inv.LongOptions, []string{"--norc"}) {
		t.Errorf("got %+v", inv)
	}
}

func TestIsInteractive(t *testing.T) {
	tests := []struct {
		args          []string
		stdin, stderr bool
		want          bool
	}{
		{nil, true, true, true},
		{nil, true, false, false},
		{nil, false, true, false},
		{[]string{"-s", "a"}, true, true, true},
		{[]string{"-c", "x"}, true, true, false},
		{[]string{"-ic", "x"}, false, false, true},
		{[]string{"f.sh"}, true, true, false},
		{[]string{"-i", "f.sh"}, false, false, true},
	}
	for _, tc := range tests {
		inv, err := Parse("bash", tc.args, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := inv.IsInteractive(tc.stdin, tc.stderr); got != tc.want {
			t.Errorf("%q tty(%v,%v): IsInteractive = %v, want %v", tc.args, tc.stdin, tc.stderr, got, tc.want)
		}
	}
}

func TestShellArgvBuiltByHand(t *testing.T) {
	cmd := "-x"
	tests := []struct {
		inv  Invocation
		want []string
	}{
		{Invocation{Command: &cmd}, []string{"bash", "-c", "--", "-x"}},
		{Invocation{Login: true, Stdin: true}, []string{"bash", "-l", "-s", "--"}},
		{Invocation{Script: "-f", Params: []string{"+a"}}, []string{"bash", "--", "-f", "+a"}},
		{Invocation{Argv: []string{"x"}}, nil},
	}
	for _, tc := range tests {
		if got := tc.inv.ShellArgv(`C:\bin\bash`); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%+v: ShellArgv = %q, want %q", tc.inv, got, tc.want)
		}
	}
}
