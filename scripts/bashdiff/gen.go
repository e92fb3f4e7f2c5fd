package main

import (
	"math/rand/v2"
	"strings"
)

// tails are the dangerous commands the templates hide; each one leaves a
// record that danger recognises when it really runs.
var tails = []string{
	"rm -rf /",
	"cat ~/.ssh/id_rsa",
	"sh -c 'rm -rf /'",
	"rm -fr ~",
	"rm -r -f $HOME",
	"cat <~/.ssh/id_rsa",
}

// A gen makes scripts, deterministically for a given seed. Not safe for
// concurrent use: one goroutine generates, the workers only run.
type gen struct{ r *rand.Rand }

func newGen(seed uint64) *gen { return &gen{rand.New(rand.NewPCG(seed, 0x6261736864696666))} }

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }
func (g *gen) chance(p float64) bool    { return g.r.Float64() < p }

// fill puts a random tail into a template.
func (g *gen) fill(tpl string) string { return strings.ReplaceAll(tpl, "{T}", g.pick(tails...)) }

// A family makes one script of its kind.
type family struct {
	name string
	make func(g *gen) string
}

// families are the generators: the coded ones below, then one per corpus
// entry. Order matters only for determinism.
func families() []family {
	fs := []family{
		{"cr", (*gen).cr},
		{"heredoc-bsnl", (*gen).heredocBSNL},
		{"heredoc-close-paren", (*gen).heredocCloseParen},
		{"heredoc-in-context", (*gen).heredocInContext},
		{"comment-bsnl", (*gen).commentBSNL},
		{"alias-keyword", (*gen).aliasKeyword},
		{"declare", (*gen).declare},
		{"clause-named-function", (*gen).clauseFunction},
		{"dir-stack", (*gen).dirStack},
	}
	for _, c := range corpus {
		fs = append(fs, family{c.family, func(g *gen) string { return g.fill(g.pick(c.templates...)) }})
	}
	return fs
}

// script returns the next script and the family that made it. A third of
// the scripts come straight from a family; the rest are mutated, from a
// family's script or from seeds, where the tail starts out inert.
func (g *gen) script(fs []family) (string, string) {
	switch x := g.r.Float64(); {
	case x < 1.0/3:
		f := fs[g.r.IntN(len(fs))]
		return f.make(g), f.name
	case x < 2.0/3:
		f := fs[g.r.IntN(len(fs))]
		return g.mutate(f.make(g)), f.name + "+mutated"
	default:
		return g.mutate(g.fill(g.pick(seeds...))), "seed+mutated"
	}
}

// cr: a carriage return is a word character to bash but, in places,
// a blank to the parser: before "#", in "\<CR><LF>", in here-document
// delimiters.
func (g *gen) cr() string {
	t := g.pick(tails...)
	pre := g.pick("true", "echo", "echo hi", "x=1", "echo $x", "echo 'a'", "ls -l", "{ true; }", "(true)", "true |", "true &&", "true ;")
	switch g.r.IntN(4) {
	case 0:
		return pre + g.pick("\r#", " \r#", "\r #", "\r\r#", "\t\r#") + g.pick("; ", " ; ", "\n", "&& ", "|| ", "| ") + t
	case 1:
		return pre + g.pick("\\\r\n", " \\\r\n", "\\\r\n\\\r\n", "\\\r\r\n") + t + g.pick("", "\n", "\r\n")
	case 2:
		d := g.pick("EOF\rX", "EOF\r", "EOF\r\r", "E\rOF", "EOF\r ")
		open := g.pick(d, "'"+d+"'", "\""+d+"\"", "\\"+d)
		nl := g.pick("\n", "\r\n")
		body := g.pick("", "hello\n")
		return "cat " + g.pick("<<", "<<-") + open + nl + body + d + "\n" + t + "\nEOF\n"
	default:
		return strings.ReplaceAll(g.pick("[[ a\r# ]]; T", "case a in a\r#) true;; esac; T", "echo ${x\r#}; T", "a=(1\r# 2); T",
			"echo $((1\r#2)); T", "f() { true\r# }; T; }", "for i in a\r#; do true; done; T", "echo `true\r#`; T",
			"echo $(true\r#); T", "if\rtrue; then true; fi; T", "{\rtrue; }; T", "true\r&& T", "echo a\r\\\nb; T",
			"echo a \r\\\n#; T", "echo a\r\n#\\\r\nT", "cat <<<x\r#; T", "echo x >y\r#; T"), "T", t)
	}
}

// heredocBSNL: backslash-newline inside a here-document's terminator
// line joins lines in bash only when the delimiter is unquoted.
func (g *gen) heredocBSNL() string {
	d := g.pick("EOF", "'EOF'", "\"EOF\"", "\\EOF", "E\"OF\"")
	line := g.pick("\\\nEOF", "E\\\nOF", "EO\\\nF", "EOF\\\n", "\\\n\\\nEOF", "E\\\n\\\nOF", "\t\\\n\tEOF", "\\\n\tEOF",
		"\t\\\nEOF", "\tE\\\nOF", "E\\\n\tOF", " \\\nEOF", "\\\n EOF", "\\\\\nEOF")
	body := "cat " + g.pick("<<", "<<-") + d + "\n" + g.pick("", "hello\n", "hello\\\n") + line + "\n" + g.pick(tails...) + "\nEOF\n"
	if g.chance(0.5) {
		return "echo $(" + body + ")"
	}
	return body
}

// heredocCloseParen: a terminator followed by ")" or "`" inside a
// command substitution, which bash and the parser end differently.
func (g *gen) heredocCloseParen() string {
	ctx := g.pick("x=$(|\n)", "echo $(|\n)", "echo \"$(|\n)\"", "cat <(|\n)", "echo `|\n`", "x=$( |\n)",
		"echo $(true; |\n)", "(|\n)", "{ |\n}", "echo ${x:-$(|\n)}")
	pre, post, _ := strings.Cut(ctx, "|")
	d, term := g.pickPair("EOF", "EOF", "'EOF'", "EOF", "\"EOF\"", "EOF", "\\EOF", "EOF")
	line := term + g.pick(")", "))", ") ", ")#", ");", "`", "}", ")x", " )")
	if g.chance(0.3) {
		line = "\t" + line
	}
	return pre + "cat " + g.pick("<<", "<<-") + d + "\n" + g.pick("", "hello\n") + line + "\n" + g.pick(tails...) + "\n" + term + post
}

// heredocInContext: a here-document opened inside backquotes, a
// parameter expansion, arithmetic or another nested context, with the
// tail before or after the terminator.
func (g *gen) heredocInContext() string {
	pre := g.pick("echo `cat <<E`", "x=`cat <<E`", "echo \"`cat <<E`\"", "`cat <<E`", "echo `cat <<'E'`", "echo `cat <<-E`",
		"echo `true; cat <<E`", "echo `cat <<E; true`", "echo ${x:-`cat <<E`}", "echo `cat <<E | cat`", "echo `cat <<E` &&",
		"case `cat <<E` in *) ;; esac", "for i in `cat <<E`; do :; done", "echo `echo \\`cat <<E\\``", "echo $(echo `cat <<E`)",
		"echo ${x:-$(cat <<E)}", "echo \"${x:-$(cat <<E)}\"", "echo $(( $(cat <<E) ))", "cat <(cat <<E)", "[[ $(cat <<E) ]]",
		"a=($(cat <<E))", "a[$(cat <<E)]=1", "echo $[ $(cat <<E) ]", "echo ${x#$(cat <<E)}", "echo ${x:$(cat <<E)}",
		"((x=$(cat <<E)))", "echo $( (cat <<E) )", "echo $({ cat <<E; })", "echo ${x:-'$(cat <<E)'}", "echo $'$(cat <<E)'",
		"let x=$(cat <<E)", "declare x=$(cat <<E)", "echo `echo $(cat <<E)`")
	t := g.pick(tails...)
	return pre + g.pick("\n"+t+"\nE\n", "\n"+t+"\n", "\nE\n"+t+"\n")
}

// commentBSNL: a comment ending in a backslash-newline, in many
// contexts; bash never continues a comment, a parser might.
func (g *gen) commentBSNL() string {
	ctx := g.pick("echo $(true {J}{T}\n)", "echo `true {J}{T}`", "echo \"$(true {J}{T}\n)\"", "case a in a) true {J}{T};; esac",
		"case a in {J}a) {T};; esac", "a=(1 {J}$({T}))", "[[ a {J}]] ; {T}", "f() { true {J}{T}\n}\nf", "{ true {J}{T}\n}",
		"( true {J}{T}\n)", "if true {J}then {T}\nfi", "for i in a {J}b; do {T}; done", "echo ${x:-$(true {J}{T}\n)}",
		"cat <<EOF\n$(true {J}{T}\n)\nEOF", "echo x | {J}{T}", "true && {J}{T}", "eval 'true {J}{T}'", "x=`true {J}{T}`",
		"true; {J}{T}", "{J}{T}", "true &{J}{T}", "coproc { true {J}{T}\n}", "time true {J}{T}", "! true {J}{T}",
		"echo $(case a in a) true {J}{T};; esac)", "a[$(true {J}{T}\n)]=1", "((x=$(true {J}{T}\n)))", "echo #\\\\\\\n{T}")
	return g.fill(strings.ReplaceAll(ctx, "{J}", g.pick("# \\\n", "#\\\n", "# x\\\n")))
}

// aliasKeyword: an alias named like a keyword or a declaration builtin,
// which bash expands (with expand_aliases) and a parser takes literally.
func (g *gen) aliasKeyword() string {
	kw := g.pick("nameref", "declare", "local", "export", "readonly", "typeset", "let", "time", "coproc", "function",
		"select", "eval", "x", "if", "then", "do", "case", "!", "[[", "{", "sudo", "command", "builtin")
	body, args := g.pickPair("rm -rf", "~", "rm -rf", "$HOME", "cat", "~/.ssh/id_rsa", "rm -rf", "/",
		"rm -rf /;", "x", "rm -rf / #", "x", "rm -rf /", "")
	sep := g.pick("\n", ";\n")
	def := "alias " + kw + "='" + body + "'"
	if g.chance(0.5) {
		def = "alias -- " + kw + "=" + shellQuote(body)
	}
	return strings.TrimRight("shopt -s expand_aliases"+sep+def+g.pick("\n", sep)+kw+" "+args, " ")
}

// declare: command substitutions and joins inside declaration builtins,
// whose arguments the parser reads as assignments.
func (g *gen) declare() string {
	d := g.pick("declare", "local", "export", "readonly", "typeset", "declare -a", "declare -x", "export -n", "declare --", "nameref")
	tpl := g.pick("{d} $({T})", "{d} \"$({T})\"", "{d} x=1 $({T})", "{d} `{T}`", "{d} x=({T})", "{d} -a x=($({T}))",
		"{d} x=$({T})", "{d} x[$({T})]=1", "{d} ${x:-$({T})}", "{d} <({T})", "{d} x=1;{T}", "{d} x=1 # \n{T}",
		"f() { {d} x=$({T}); }; f", "{d} x=1\\\n{T}", "{d} x+=$({T})", "{d} -A m=([$({T})]=1)", "{d} x=1|{T}",
		"{d} 'x'=$({T})", "{d} \"x=$({T})\"", "{d} $${x}=$({T})", "{d} {a,b}=$({T})")
	return g.fill(strings.ReplaceAll(tpl, "{d}", d))
}

// clauseFunction: a function named like a keyword, clause word or a
// builtin the policy treats specially, then called with a dangerous
// command as its arguments or body.
func (g *gen) clauseFunction() string {
	name := g.pick("declare", "local", "export", "readonly", "typeset", "let", "eval", "exec", "command", "builtin",
		"time", "then", "do", "done", "fi", "esac", "in", "select", "source", "alias", "nohup", "env", "sudo", "echo",
		"true", ":", "test", "[", "shopt", "set", "trap", "unset", "printf", "read", "cd")
	def := g.pick("function %s { \"$@\"; }", "%s() { \"$@\"; }", "function %s() { \"$@\"; }", "function %s { {T}; }",
		"%s() { {T}; }", "function %s\n{ \"$@\"; }", "%s () ( \"$@\" )")
	call := g.pick("%s {T}", "%s", "%s -- {T}", "x=1 %s {T}", "\\%s {T}", "'%s' {T}", "%s x {T}")
	return g.fill(strings.ReplaceAll(def, "%s", name) + g.pick("; ", "\n") + strings.ReplaceAll(call, "%s", name))
}

// dirStack: pushd, popd, dirs and cd in the forms bash reads loosely or
// refuses (-n anywhere, +N, --, -, signed numbers, extra words, a
// directory that does not exist, CDPATH, DIRSTACK), then a command that
// is dangerous only in / or the home directory.
func (g *gen) dirStack() string {
	dir := func() string {
		return g.pick("/", "/tmp", "/nope", ".", "..", "~", "/home", "-", "+1", "-1", "+0", "-0", "++1", "-+1", " +1", "''", "x")
	}
	var b strings.Builder
	if g.chance(0.5) {
		b.WriteString(g.pick("cd /; ", "cd ~; ", "cd /tmp; ", "CDPATH=/; ", "HOME=/; ", "shopt -s cdable_vars; x=/; "))
	}
	for range 1 + g.r.IntN(5) {
		switch g.r.IntN(6) {
		case 0, 1:
			b.WriteString("pushd" + g.pick("", " -n", " --", " -n --", " -x") + " " + dir())
			if g.chance(0.3) {
				b.WriteString(" " + g.pick("-n", "+1", "x", "--"))
			}
		case 2, 3:
			b.WriteString("popd" + g.pick("", " -n", " --", " -x") + g.pick("", " +1", " -1", " +0", " -0", " +2", " ''", " x", " -+1"))
		case 4:
			b.WriteString(g.pick("dirs -c", "dirs -v", "dirs -c -l", "DIRSTACK[1]=/", "DIRSTACK[0]=/tmp"))
		default:
			b.WriteString("cd " + g.pick("", "-P ", "-x ", "-- ") + dir() + g.pick("", "", " x", " || exit", " && true"))
		}
		b.WriteString(g.pick(" >/dev/null 2>&1; ", "; ", " && ", " || "))
	}
	b.WriteString(g.pick("rm -r .", "rm -rf *", "cat .ssh/id_rsa", "rm -r ..", "rm -r ../.."))
	return b.String()
}

// pickPair picks one of the pairs (a0, b0, a1, b1, ...).
func (g *gen) pickPair(xs ...string) (string, string) {
	i := 2 * g.r.IntN(len(xs)/2)
	return xs[i], xs[i+1]
}

// shellQuote single-quotes s for bash.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// seeds hold the tail where bash does not run it: quoted, commented,
// in a here-document. A mutation that makes bash run it while the parser
// still sees it inert is a bypass.
var seeds = []string{
	"echo '{T}'", "echo \"{T}\"", "# {T}", "echo hi # {T}", "cat <<EOF\n{T}\nEOF\n", "cat <<'EOF'\n{T}\nEOF\n",
	"cat <<-EOF\n\t{T}\n\tEOF\n", "echo $'{T}'", ": '{T}'", "[[ x == \"{T}\" ]]", "case x in \"{T}\") ;; esac",
	"echo `echo '{T}'`", "x='{T}'", "echo ${x:-'{T}'}", "((x)) # {T}", "echo $(echo '{T}')", "echo $((1)) # ; {T}",
	": <<'X'\n{T}\nX\n", "echo $(cat <<EOF\n{T}\nEOF\n)", "echo \"$(cat <<'EOF'\n{T}\nEOF\n)\"", "echo ${x#{T}}",
	"echo 'a' \"b\" # {T}", "true <<A; echo <<B\nx\nA\n{T}\nB\n", "echo \\\\# {T}", "x=(a # {T}\n)", "echo `# {T}`",
	"f() { echo; } # {T}", "echo $'\\'' # {T}", "echo a\\\n# {T}", "if true; then echo; fi # {T}", "echo $\"{T}\"",
	"echo \"${x-'{T}'}\"", "cat <<<'{T}'", "echo {a,b} # {T}", "echo $[1] # {T}", "echo @(a) # {T}",
	"echo <(true) # {T}", "let 'x=1' # {T}", "echo $((1 # {T}\n))", "echo `echo \\`echo\\`` # {T}",
	"echo \"`echo '{T}'`\"", "case a in a) echo;; esac # {T}", "echo ${x:+\"{T}\"}", "echo x >|y # {T}",
	"echo x &>y # {T}", "true |& true # {T}", "time echo # {T}", "! echo # {T}", "coproc echo # {T}",
	"function f { :; } # {T}", "echo $'\\n' # {T}", "x=\"$(cat <<'E'\n{T}\nE\n)\"", "echo \"${x:-$'{T}'}\"",
}

// frags are what a mutation inserts: the tokens where readings differ.
var frags = []string{
	" ", "\t", "\n", ";", "&", "|", "&&", "||", "(", ")", "{", "}", "$(", "`", "'", "\"", "$'", "$\"", "\\", "\\\n",
	"#", "<<", "<<-", "<<<", "EOF", "'EOF'", "$((", "))", "$[", "]", "[[", "]]", "case ", " in ", "esac", ";;", ";&",
	";;&", "if ", "then ", "fi", "for ", "do ", "done", "function ", "f", "()", "=~", "!", "@(", "<(", ">(", ">|",
	"&>", "|&", "${", "x", "=", "$", "\\\\", "\\'", "\\\"", "\\`", "\\$", "$#", "$$", "${#", "((", "\\#", "[", "=(",
	"+=", "x=", "eval ", "time ", "coproc ", "let ", "! ", "!(", "\u00a0", "\u2028", "\v", "\f", "~", "*", "?", "-",
	"--", ":", "%", "^", ",", "/", "$@", "\\\\\n", "}}", "\n\n", "<", ">", ">>", "<>", "2>&1", "{x}>", "EOF\n",
	"\nEOF\n", "X\n", "A\n", "B\n", "\r", "\r\n", "\\\r\n", "alias ", "shopt -s expand_aliases\n",
}

// mutate applies one to three random edits: insert a fragment, delete a
// few bytes, or duplicate a span.
func (g *gen) mutate(s string) string {
	for range 1 + g.r.IntN(3) {
		i := g.r.IntN(len(s) + 1)
		switch x := g.r.Float64(); {
		case x < 0.6:
			s = s[:i] + g.pick(frags...) + s[i:]
		case x < 0.8 && len(s) > 1:
			j := min(len(s), i+1+g.r.IntN(3))
			s = s[:i] + s[j:]
		default:
			j := g.r.IntN(len(s) + 1)
			a, b := min(i, j), max(i, j)
			s = s[:b] + s[a:b] + s[b:]
		}
	}
	return s
}
