package shellargs

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxArgBytes caps the total size of the arguments Parse accepts. Linux
// itself refuses more than about 6 MiB of argv and environment together, so
// only a caller that builds arguments in memory can reach it.
const MaxArgBytes = 8 << 20

// Own describes aar-exec's own long flags, which bash does not have
// (--workspace DIR, --mode M, --best-effort, ...). It reports whether name,
// given without its leading dashes, is one of them and whether it takes a
// value. Parse asks it only about names that are not bash's long options, so
// an Own cannot take --login or --norc away from bash.
type Own func(name string) (isOwn, takesValue bool)

// An Invocation is one parsed shell command line. Exactly one of Argv,
// Command, Script and Stdin describes what runs, unless Help or Version is
// set, in which case nothing runs.
type Invocation struct {
	// Own holds aar-exec's own flags in the order found, each normalised to
	// "--name=value" or "--name".
	Own []string
	// Argv is aar-exec's own "-- PROG ARGS..." form; non-nil only then.
	Argv []string
	// Command is the -c string, when -c was given.
	Command *string
	// Script is the SCRIPTFILE operand (GitHub Actions {0}, Jenkins -xe FILE).
	Script string
	// Stdin reports that the shell reads its commands from standard input:
	// -s was given, or there was no operand at all. Whether that input is a
	// script or a terminal session is for the caller to decide; see
	// [Invocation.IsInteractive].
	Stdin bool
	// NoOperands reports that nothing followed the options: no command
	// string, no script file, no positional parameter.
	NoOperands bool
	// Interactive reports -i.
	Interactive bool
	// Login reports a login shell: -l, --login, or argv0 starting with '-'.
	Login bool
	// LoginOption reports that -l or --login itself was given.
	LoginOption bool
	// LoginArgv0 reports that argv0 started with '-', the way su - and tmux
	// start login shells. bash then also sets $0 to that name.
	LoginArgv0 bool
	// Params are the operands after the command string ($0, $1, ...) with
	// -c, or after the script file or -s ($1, ...) otherwise.
	Params []string
	// Options are bash's short options in the order given, unbundled, each
	// -X or +X, with -o/+o/-O/+O followed by their argument, for example
	// ["-e", "-u", "-x", "-o", "pipefail", "+O", "extglob"]. -c, -i, -l and
	// -s are not in it: they are the fields above.
	Options []string
	// LongOptions are bash's long options in the order given, spelled
	// "--name" and followed by their argument: ["--noprofile", "--norc",
	// "--rcfile", "F"]. --init-file is spelled --rcfile, its synonym.
	LongOptions []string
	// Help and Version report bash's --help and --version, which the caller
	// answers with aar-exec's own help and version. bash stops parsing at
	// its long options when it sees them, and so does Parse.
	Help, Version bool
}

// A UsageError reports arguments that bash would reject, or that aar-exec
// refuses to pass on. Its message says what to do instead.
type UsageError struct {
	Arg    string // the argument at fault, as given, or the option missing its argument
	Reason string // what is wrong
	Hint   string // what to do instead
}

// Error returns a lower-case message without the "aar-exec: " prefix.
func (e *UsageError) Error() string {
	arg := e.Arg
	if len(arg) > 60 {
		// A whole script in an error message helps nobody.
		cut := 50
		for cut > 0 && !utf8.RuneStart(arg[cut]) {
			cut--
		}
		arg = arg[:cut] + "..."
	}
	msg := fmt.Sprintf("%q: %s", arg, e.Reason)
	if e.Hint != "" {
		msg += "; " + e.Hint
	}
	return msg
}

// shortHint lists the short options Parse accepts.
const shortHint = "bash accepts -abefhkmnprtuvxBCEHPT, -c, -i, -l, -s, -o NAME and -O NAME"

// Parse parses the arguments (without argv0) a client passed to its shell.
//
// argv0 decides two things. A leading '-' makes a login shell, as in bash.
// When its base name is sh or bash (aar-exec installed as a shim), every
// argument except aar-exec's own long flags is bash's; otherwise a bare "--"
// that follows nothing but aar-exec's own flags starts aar-exec's argv form,
// "-- PROG ARGS...", which runs PROG without a shell.
//
// aar-exec's own flags, as reported by own (which may be nil), are taken
// anywhere among the options, as "--name value" or "--name=value", and never
// after the first operand: "-c S --workspace" makes "--workspace" $0.
//
// Parse fails with a *UsageError on anything bash would reject, on options it
// does not pass on, and on NUL bytes, invalid UTF-8 or more than MaxArgBytes.
func Parse(argv0 string, args []string, own Own) (*Invocation, error) {
	if err := checkWords(argv0, args); err != nil {
		return nil, err
	}
	name, login := shellName(argv0)
	p := parser{
		args:    args,
		own:     own,
		asShell: strings.EqualFold(name, "sh") || strings.EqualFold(name, "bash"),
		inv:     &Invocation{Login: login, LoginArgv0: login},
	}
	return p.parse()
}

// parser holds the state of one Parse call.
type parser struct {
	args    []string
	i       int // next argument to look at
	own     Own
	asShell bool // invoked as sh or bash: no argv form
	inv     *Invocation

	bashSeen    bool // a bash option came before: "--" is bash's
	shortSeen   bool // bash's long options are over
	wantCommand bool // -c
	wantStdin   bool // -s
}

func (p *parser) parse() (*Invocation, error) {
	inv := p.inv
options:
	for p.i < len(p.args) {
		a := p.args[p.i]
		switch {
		case a == "":
			break options // an empty operand
		case a == "--" && !p.asShell && !p.bashSeen:
			if p.i+1 == len(p.args) {
				return nil, &UsageError{Arg: a, Reason: "no program after it",
					Hint: "write aar-exec -- PROG [ARGS...], or -c 'COMMAND' to use the shell"}
			}
			inv.Argv = append([]string{}, p.args[p.i+1:]...)
			return inv, nil
		case a == "--" || a == "-":
			p.i++ // bash: either one ends the options
			break options
		case strings.HasPrefix(a, "--"):
			if err := p.longOption(a[2:], a); err != nil {
				return nil, err
			}
		case a[0] == '-' && !p.shortSeen && isBashLong(a[1:]):
			// bash takes -login, -norc, ... as long options before any
			// short one; "-norc" is not the bundle -n -o rc -c.
			if err := p.longOption(a[1:], a); err != nil {
				return nil, err
			}
		case a[0] == '-' || a[0] == '+':
			if err := p.shortOptions(a); err != nil {
				return nil, err
			}
		default:
			break options
		}
		if inv.Help || inv.Version {
			// bash acts on --help and --version once its long options
			// are over, without looking further.
			if p.i == len(p.args) || !isLongWord(p.args[p.i]) {
				return inv, nil
			}
		}
	}
	return p.operands()
}

// isLongWord reports whether bash's long-option loop would look at a.
func isLongWord(a string) bool {
	return strings.HasPrefix(a, "--") && a != "--" || strings.HasPrefix(a, "-") && isBashLong(a[1:])
}

// longOption handles one long option, name being a without its dashes.
func (p *parser) longOption(name, a string) error {
	flag, value, hasValue := strings.Cut(name, "=")
	kind := bashLong(flag)
	if kind == longUnknown && p.own != nil {
		if isOwn, takesValue := p.own(flag); isOwn {
			return p.ownFlag(flag, value, hasValue, takesValue, a)
		}
	}
	if kind == longUnknown {
		return &UsageError{Arg: a, Reason: "unknown option: neither bash nor aar-exec has it",
			Hint: "check the spelling; bash's long options are --login --noprofile --norc --posix --restricted --verbose --noediting --rcfile F"}
	}
	if hasValue {
		hint := "write " + a[:len(a)-len(value)-1]
		if kind == longFile {
			hint += " " + value + " as two words"
		}
		return &UsageError{Arg: a, Reason: "bash takes no '=' in its long options", Hint: hint}
	}
	if p.shortSeen {
		return &UsageError{Arg: a, Reason: "bash's long options must come before its short options",
			Hint: "move it before the first short option, as bash requires"}
	}
	p.bashSeen = true
	p.i++
	inv := p.inv
	switch kind {
	case longFlag:
		inv.LongOptions = append(inv.LongOptions, "--"+flag)
	case longFile:
		if p.i == len(p.args) {
			return &UsageError{Arg: a, Reason: "option requires an argument", Hint: "write " + a + " FILE"}
		}
		inv.LongOptions = append(inv.LongOptions, "--rcfile", p.args[p.i])
		p.i++
	case longLogin:
		inv.Login, inv.LoginOption = true, true
	case longHelp:
		inv.Help = true
	case longVersion:
		inv.Version = true
	case longRefused:
		return &UsageError{Arg: a, Reason: "aar-exec does not pass this bash option on",
			Hint: "remove it; it makes bash print or debug rather than run the command"}
	}
	return nil
}

// ownFlag records one of aar-exec's own flags.
func (p *parser) ownFlag(flag, value string, hasValue, takesValue bool, a string) error {
	p.i++
	switch {
	case hasValue && !takesValue:
		return &UsageError{Arg: a, Reason: "this aar-exec flag takes no value", Hint: "write --" + flag}
	case hasValue:
		p.inv.Own = append(p.inv.Own, "--"+flag+"="+value)
	case takesValue:
		if p.i == len(p.args) {
			return &UsageError{Arg: a, Reason: "flag needs a value", Hint: "write --" + flag + " VALUE or --" + flag + "=VALUE"}
		}
		p.inv.Own = append(p.inv.Own, "--"+flag+"="+p.args[p.i])
		p.i++
	default:
		p.inv.Own = append(p.inv.Own, "--"+flag)
	}
	return nil
}

// shortOptions handles one word of bundled short options such as -cex or
// +o; -o and -O take the next unused words in turn, so "-co pipefail S" is
// -c -o pipefail and S is the first operand.
func (p *parser) shortOptions(a string) error {
	p.bashSeen, p.shortSeen = true, true
	next := p.i + 1
	sign := a[0]
	inv := p.inv
	if len(a) == 1 {
		return &UsageError{Arg: a, Reason: "empty option", Hint: "remove it"}
	}
	for _, c := range a[1:] {
		switch {
		case c == 'c' || c == 'i' || c == 'l' || c == 's':
			if sign == '+' {
				return &UsageError{Arg: a, Reason: fmt.Sprintf("+%c has no meaning", c),
					Hint: fmt.Sprintf("write -%c", c)}
			}
			switch c {
			case 'c':
				p.wantCommand = true
			case 'i':
				inv.Interactive = true
			case 'l':
				inv.Login, inv.LoginOption = true, true
			case 's':
				p.wantStdin = true
			}
		case c == 'o' || c == 'O':
			opt := string(sign) + string(c)
			if next == len(p.args) {
				what := "an option name, e.g. " + opt + " pipefail"
				if c == 'O' {
					what = "a shopt name, e.g. " + opt + " extglob"
				}
				return &UsageError{Arg: opt, Reason: "option requires an argument", Hint: "give it " + what}
			}
			val := p.args[next]
			next++
			if c == 'o' && !isSetOption(val) {
				return &UsageError{Arg: val, Reason: "invalid " + opt + " option name",
					Hint: "use a name that bash's set -o lists, such as pipefail, errexit or nounset"}
			}
			if c == 'O' && val == "extdebug" && sign == '-' {
				// At invocation, extdebug runs the debugger's start-up file,
				// code no policy has seen, just as --debugger does.
				return &UsageError{Arg: val, Reason: "aar-exec does not pass -O extdebug on",
					Hint: "remove it, or run shopt -s extdebug inside the command"}
			}
			if c == 'O' && !isShopt(val) {
				return &UsageError{Arg: val, Reason: "invalid " + opt + " shell option name",
					Hint: "use a name that bash's shopt lists, such as extglob or nullglob"}
			}
			inv.Options = append(inv.Options, opt, val)
		case c == 'r' && sign == '+':
			return &UsageError{Arg: a, Reason: "restricted mode cannot be turned off", Hint: "remove +r"}
		case c == 'D':
			return &UsageError{Arg: a, Reason: "aar-exec does not pass -D on",
				Hint: "remove it; it makes bash print strings rather than run the command"}
		case isFlag(c):
			inv.Options = append(inv.Options, string(sign)+string(c))
		default:
			in := ""
			if len(a) > 2 {
				in = fmt.Sprintf(" (in %q)", a)
			}
			return &UsageError{Arg: string(sign) + string(c), Reason: "invalid shell option" + in, Hint: shortHint}
		}
	}
	p.i = next
	return nil
}

// operands sorts out what follows the options.
func (p *parser) operands() (*Invocation, error) {
	inv := p.inv
	rest := p.args[p.i:]
	switch {
	case p.wantCommand && p.wantStdin:
		return nil, &UsageError{Arg: "-s", Reason: "cannot be combined with -c",
			Hint: "use -c 'COMMAND' to run a string, or -s to read commands from standard input"}
	case p.wantCommand:
		if len(rest) == 0 {
			return nil, &UsageError{Arg: "-c", Reason: "option requires an argument",
				Hint: "put the command string after the options, e.g. -c 'echo hi'"}
		}
		cmd := rest[0]
		inv.Command = &cmd
		inv.Params = append([]string{}, rest[1:]...)
	case p.wantStdin || len(rest) == 0:
		inv.Stdin = true
		inv.NoOperands = len(rest) == 0
		inv.Params = append([]string{}, rest...)
	case rest[0] == "":
		return nil, &UsageError{Arg: "", Reason: "empty script file name",
			Hint: "name the script file, or use -c 'COMMAND'"}
	default:
		inv.Script = rest[0]
		inv.Params = append([]string{}, rest[1:]...)
	}
	return inv, nil
}

// IsInteractive reports whether bash would run this invocation as an
// interactive shell, given whether standard input and standard error are
// terminals: -i, or commands read from standard input with both on a
// terminal.
func (inv *Invocation) IsInteractive(stdinIsTerminal, stderrIsTerminal bool) bool {
	return inv.Interactive || inv.Stdin && stdinIsTerminal && stderrIsTerminal
}

// checkWords fails closed on input no client produces.
func checkWords(argv0 string, args []string) error {
	total := len(argv0)
	for _, a := range args {
		total += len(a) + 1
	}
	if total > MaxArgBytes {
		return &UsageError{Arg: "argv", Reason: fmt.Sprintf("%d bytes of arguments, more than the %d accepted", total, MaxArgBytes),
			Hint: "put long scripts in a file and pass its name"}
	}
	if err := checkWord(0, argv0); err != nil {
		return err
	}
	for i, a := range args {
		if err := checkWord(i+1, a); err != nil {
			return err
		}
	}
	return nil
}

// checkWord fails on a NUL byte or invalid UTF-8 in argument i.
func checkWord(i int, a string) error {
	if strings.IndexByte(a, 0) >= 0 {
		return &UsageError{Arg: a, Reason: fmt.Sprintf("argument %d contains a NUL byte", i),
			Hint: "remove it; no shell can receive one"}
	}
	if !utf8.ValidString(a) {
		return &UsageError{Arg: a, Reason: fmt.Sprintf("argument %d is not valid UTF-8", i),
			Hint: "encode it as UTF-8, or write the bytes with $'\\xNN' inside the command"}
	}
	return nil
}

// shellName returns argv0's base name without a leading '-', and whether
// the '-' was there. Both '/' and '\' separate directories, on every OS.
func shellName(argv0 string) (name string, login bool) {
	name = argv0[strings.LastIndexAny(argv0, `/\`)+1:]
	name, login = strings.CutPrefix(name, "-")
	if len(name) > 4 && strings.EqualFold(name[len(name)-4:], ".exe") {
		name = name[:len(name)-4]
	}
	return name, login
}
