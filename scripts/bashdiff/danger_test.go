package main

import (
	"slices"
	"testing"
)

func TestDanger(t *testing.T) {
	for _, tc := range []struct {
		c    call
		want bool
	}{
		{call{sbWork, "rm", []string{"-rf", "/"}}, true},
		{call{sbWork, "rm", []string{"/", "-R"}}, true},
		{call{"/", "rm", []string{"--recursive", "."}}, true},
		{call{sbWork, "rm", []string{"-r", "--", "//"}}, true},
		{call{sbWork, "rm", []string{"-fr", "../"}}, true},
		{call{sbWork, "sudo", []string{"env", "X=1", "nice", "-n", "5", "rm", "-r", sbHome}}, true},
		{call{sbWork, "dd", []string{"if=" + sbKey}}, true},
		{call{sbHome, "cat", []string{".ssh/id_rsa"}}, true},
		{call{sbWork, "<open>", []string{sbKey}}, true},
		{call{sbWork, "rm", []string{"-f", "/"}}, false},
		{call{sbWork, "rm", []string{"-rf", "/tmp"}}, false},
		{call{"/", "rm", []string{"-rf", "bin", "dev", "usr"}}, true},
		{call{sbWork, "rm", []string{"-rf", "//usr"}}, true},
		{call{sbWork, "rm", []string{"-rf", "/usr/local/x"}}, false},
		{call{sbWork, "rm", []string{"--", "-r", "/"}}, false},
		{call{sbWork, "echo", []string{"rm", "-rf", "/"}}, false},
		{call{sbWork, "xargs", []string{"-I", "rm", "-rf", "/"}}, false},
		{call{sbWork, "cat", []string{sbKey + ".pub"}}, false},
		{call{sbWork, "env", []string{"--", "rm", "-rf", "/"}}, true},
		{call{sbWork, "env", []string{"--", "--", "rm", "-fr", sbHome}}, false},
		{call{sbWork, "nohup", []string{"x=--", "rm", "-fr", sbHome}}, false},
	} {
		if got := danger(tc.c) != ""; got != tc.want {
			t.Errorf("danger(%v) = %q; want dangerous %v", tc.c, danger(tc.c), tc.want)
		}
	}
}

func TestParseLog(t *testing.T) {
	log := "2\x00/d\x00rm\x00-rf\x00/\x000\x00/e\x00ls\x00" + "3\x00/f\x00cat" // the last record is torn
	got := parseLog([]byte(log))
	want := []call{{"/d", "rm", []string{"-rf", "/"}}, {"/e", "ls", []string{}}}
	if len(got) != len(want) {
		t.Fatalf("parseLog = %q; want %q", got, want)
	}
	for i := range want {
		if got[i].Dir != want[i].Dir || got[i].Name != want[i].Name || !slices.Equal(got[i].Args, want[i].Args) {
			t.Errorf("parseLog[%d] = %q; want %q", i, got[i], want[i])
		}
	}
}

// The scripts depend on the seed alone, so a finding can be reproduced.
func TestGenDeterministic(t *testing.T) {
	fs := families()
	a, b := newGen(7), newGen(7)
	for i := range 500 {
		sa, _ := a.script(fs)
		sb, _ := b.script(fs)
		if sa != sb {
			t.Fatalf("script %d differs for the same seed: %q vs %q", i, sa, sb)
		}
	}
}
