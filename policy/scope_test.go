package policy

import "testing"

// TestSubshellScope: pipeline stages and background jobs run in subshells,
// so what they set or where they cd is gone for the commands after them.
func TestSubshellScope(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"x=/; x=/tmp | true; rm -rf $x",
		"x=/; x=/tmp & rm -rf $x",
		"x=/; x=/tmp |& cat; rm -rf $x",
		"x=/; { x=/tmp; } | :; rm -rf $x",
		"x=/; x=/tmp 2>/dev/null & wait; rm -rf $x",
		"x=/; export x=/tmp & rm -rf $x",
		"x=/; declare x=/tmp | :; rm -rf $x",
		"x=/; ! x=/tmp | :; rm -rf $x",
		"cd /; cd /tmp | true; rm -rf *",
		"cd /; cd /tmp & rm -rf *",
		"cd /; cd /tmp 2>&1 | cat; rm -rf *",
		"cd /; { cd /tmp; } & rm -rf *",
		"cd /; time cd /tmp | :; rm -rf *",
		"cd /; coproc cd /tmp; rm -rf *",
		"k=~/.ssh/id_rsa; k=/dev/null | :; cat $k",
		// The last stage too, unless lastpipe is on (see pipeline).
		"x=/; echo | x=/tmp; rm -rf $x",
		"cd /; true | cd /tmp; rm -rf *",
		"x=/; (x=/tmp); rm -rf $x",
		"x=/; y=$(x=/tmp); rm -rf $x",
		"cd /; echo $(cd /tmp); rm -rf *",
		"cd /; cat <(cd /tmp); rm -rf *",
	})
}

// TestLastpipe: with lastpipe bash runs the last stage in this shell.
func TestLastpipe(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"shopt -s lastpipe; x=/tmp; echo | x=/; rm -rf $x",
		"shopt -s last\\\npipe; x=/tmp; echo | x=/; rm -rf $x",
		"shopt -s last''pipe; x=/tmp; echo | x=/; rm -rf $x",
		"o=last; shopt -s ${o}pipe; cd /tmp; echo | cd /; rm -rf *",
		"shopt -s $o; x=/tmp; echo | x=/; rm -rf $x",
		"bash -O lastpip\\e -c 'x=a; true | x=/; rm -rf \"$x\"'",
		"BASHOPTS=lastpipe bash -c 'x=a; true | x=/; rm -rf \"$x\"'",
	})
	// Only the shell that turns it on has it: a mention, or a child's
	// option, leaves this shell's last stage in a subshell.
	wantAction(t, p, Deny, []string{
		": lastpipe; x=/; echo | x=/tmp; rm -rf $x",
		"# shopt -s lastpipe\nx=/; echo | x=/tmp; rm -rf $x",
		"bash -O lastpipe -c true; x=/; echo | x=/tmp; rm -rf $x",
	})
}

// TestFuncScope: a body judged where it is defined changes nothing; a call
// keeps what it sets, but not its locals.
func TestFuncScope(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"x=/; f() { x=/tmp; }; rm -rf $x",
		"cd /; f() { cd /tmp; }; rm -rf *",
		"x=/; f() { x=/tmp; } & rm -rf $x",
		"k=~/.ssh/id_rsa; f(){ k=README; }; cat $k",
		"x=/; f(){ local x; x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ local x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ declare x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ typeset x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ local -x x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ declare -x x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ declare -r x=/tmp; }; f; rm -rf $x",
		"x=/; f(){ local x=/a; g; }; g(){ x=/tmp; }; f; rm -rf $x",
		// What the call set before making the name local stays set.
		"x=/tmp; f(){ x=/; local x=/a; }; f; rm -rf $x",
		// Real calls keep what is not local.
		"x=/tmp; f(){ x=/; }; f; rm -rf $x",
		"x=/tmp; f(){ export x=/; }; f; rm -rf $x",
		"x=/tmp; f(){ readonly x=/; }; f; rm -rf $x",
		"x=/tmp; f(){ declare -g x=/; }; f; rm -rf $x",
		"x=/tmp; f(){ declare -gx x=/; }; f; rm -rf $x",
		"cd /tmp; f(){ cd /; }; f; rm -rf *",
	})
}

// TestChildScope: child shells and deferred code are judged, but what they
// set does not reach the commands after them.
func TestChildScope(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		`x=/; bash -c "x=/tmp"; rm -rf $x`,
		`cd /; sh -c "cd /tmp"; rm -rf *`,
		"x=/; echo x=/tmp | sh; rm -rf $x",
		"shopt -s lastpipe; x=/; echo x=/tmp | sh; rm -rf $x",
		"x=/; sh <<< x=/tmp; rm -rf $x",
		"x=/; bash <<EOF\nx=/tmp\nEOF\nrm -rf $x",
		"cd /; bash <(echo cd /tmp); rm -rf *",
		`x=/; su -c "x=/tmp"; rm -rf $x`,
		`x=/; watch "x=/tmp"; rm -rf $x`,
		`x=/; flock l -c "x=/tmp"; rm -rf $x`,
		`x=/; python3 -c 'import os; os.system("x=/tmp; ls")'; rm -rf $x`,
		`x=/; trap "x=/tmp" EXIT; rm -rf $x`,
		`x=/; trap "x=/tmp" 0; rm -rf $x`,
		`cd /; trap "cd /tmp" EXIT; rm -rf *`,
		`cd /; echo "cd /tmp" > s.sh; ./s.sh; rm -rf *`,
		`x=/; ssh localhost "x=/tmp"; rm -rf $x`,
		// The strings are still judged.
		`bash -c "rm -rf /"`,
		`trap "rm -rf /" EXIT`,
		// eval and source run in this shell.
		`x=/tmp; eval "x=/"; rm -rf $x`,
		`x=/tmp; echo "x=/" > v.sh; . ./v.sh; rm -rf $x`,
		`x=/tmp; source <(echo x=/); rm -rf $x`,
		// A trap on a signal may run before any later command.
		`x=/tmp; trap "x=/" USR1; kill -USR1 $$; rm -rf $x`,
	})
}

// TestWrapperScope: a wrapper that is a program runs the command in its
// own process, where cd or a function changes nothing here.
func TestWrapperScope(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"cd /; env cd /tmp; rm -rf *",
		"cd /; sudo cd /tmp; rm -rf *",
		"cd /; nohup cd /tmp; rm -rf *",
		"cd /; timeout 5 cd /tmp; rm -rf *",
		"cd /; busybox cd /tmp; rm -rf *",
		"cd /; find . -exec cd /tmp \\; ; rm -rf *",
		"cd /; watch -x cd /tmp; rm -rf *",
		"f(){ cd /tmp; }; cd /; sudo f; rm -rf *",
		"x=/; f(){ x=/tmp; }; env f; rm -rf $x",
		// command and builtin run the builtin in this shell.
		"cd /tmp; command cd /; rm -rf *",
		"cd /tmp; builtin cd /; rm -rf *",
	})
}

// TestKeptScope: what runs in this shell keeps its changes, however
// called: with prefix assignments, or defined or set inside a function.
func TestKeptScope(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"cd /tmp; X=1 cd /; rm -rf *",
		"x=/tmp; f(){ x=/; }; X=1 f; rm -rf $x",
		"x=/tmp; X=1 eval x=/; rm -rf $x",
		`f() { g() { rm -rf "$1"; }; }; f; g /`,
		`f(){ a=(/); }; f; rm -rf "${a[@]}"`,
	})
}

// TestScopeOrdinary: build scripts that use subshells and functions stay
// allowed.
func TestScopeOrdinary(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Allow, []string{
		`x=build; make | tee log; rm -rf "$x"`,
		`f() { cd sub && make; }; f`,
		`(cd sub && make) && rm -rf out`,
		`x=build; f() { local y=/; }; f; rm -rf "$x"`,
		`f() { out=build; }; f; rm -rf "$out"`,
		`make 2>&1 | tee log & wait; rm -rf build`,
		`x=build; trap 'rm -rf "$x"' EXIT; make`,
		`d=$(mktemp -d); trap 'rm -rf "$d"' EXIT; cd "$d" && make -C /home/u/proj`,
		`cd sub; bash -c "cd /; ls"; rm -rf out`,
		`shopt -s lastpipe; git ls-files | read -r f; echo "$f"`,
		`sudo make install; rm -rf build`,
		`cd sub; env CC=gcc make; rm -rf out`,
		`x=build; x=/ make; rm -rf "$x"`,
	})
}

// TestReviewedScopeLeaks: a code review of the day's scope work found
// state that leaked out of child processes and subshells.
func TestReviewedScopeLeaks(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		`cd /; gdb -batch -ex "shell cd /tmp"; rm -rf *`,
		`cd /; gdb -batch -ex "!cd /tmp"; rm -rf *`,
		`cd /; tmux new -d "cd /tmp"; rm -rf *`,
		`cd /; tmux -c "cd /tmp"; rm -rf *`,
		`cd /; perf stat --pre "cd /tmp" true; rm -rf *`,
		`cd /; perf stat eval "cd /tmp"; rm -rf *`,
		`cd /; gdb --args eval "cd /tmp"; rm -rf *`,
		`x=/; gdb -ex "shell x=/tmp"; rm -rf "$x"`,
		`cd /; export PROMPT_COMMAND="cd /tmp"; bash -ic true; rm -rf *`,
		// lastpipe belongs to the shell that set it.
		`(shopt -s lastpipe); cd /; echo | cd /tmp; rm -rf *`,
		`echo | shopt -s lastpipe; cd /; echo | cd /tmp; rm -rf *`,
		`f(){ shopt -s lastpipe; }; cd /; echo | cd /tmp; rm -rf *`,
		`shopt -s lastpipe; shopt -u lastpipe; cd /; echo | cd /tmp; rm -rf *`,
		// Attached option values and bwrap's working directory.
		`nsenter -w/ -t 1 rm -rf *`,
		`bwrap --bind / / --chdir / rm -rf *`,
		"shopt -s extglob; cat *(x).env",
		"shopt -s extglob; cat ?(x).env",
	})
	wantAction(t, p, Allow, []string{
		`x=/; printf -vx %s /tmp; rm -rf "$x"`,
	})
}
