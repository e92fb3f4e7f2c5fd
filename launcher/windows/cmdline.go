package windows

import (
	"errors"
	"fmt"
	"github.com/aar-agent/aar-exec/internal/winargv"
	"strings"
	"unicode/utf8"
)

// maxCommandLine is CreateProcess's limit on lpCommandLine, in UTF-16 code
// units including the terminating NUL.
const maxCommandLine = 32767

// commandLine quotes argv into the single string CreateProcess takes, so that
// the child's CommandLineToArgvW (and the C runtime) give back exactly argv.
// Argument 0 follows its own rule (quotes delimit it, backslashes are
// literal), so it cannot hold a quote; the others follow the classic
// 2n/2n+1 backslash rule. The quoting is package winargv's, shared with the
// WSL launcher.
func commandLine(argv []string) (string, error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", errors.New("windows launcher: empty command")
	}
	if err := checkStrings("argument", argv); err != nil {
		return "", err
	}
	if err := winargv.Check(argv); err != nil {
		return "", fmt.Errorf("windows launcher: %w", err)
	}
	return winargv.Join(argv), nil
}

// checkBatchArgs refuses arguments that cmd.exe would reinterpret when the
// program is a batch file: CreateProcess runs .bat and .cmd through cmd.exe,
// which expands %VAR% and obeys & | < > ^ even inside quotes, so the
// command that ran would not be the one the policy approved (the
// "BatBadBut" class of bugs).
func checkBatchArgs(program string, argv []string) error {
	if !isBatch(program) {
		return nil
	}
	for i, a := range argv[1:] {
		if j := strings.IndexAny(a, "\"%!^&|<>()\r\n"); j >= 0 {
			return fmt.Errorf("windows launcher: argument %d of batch file %q contains %q, which cmd.exe would reinterpret", i+1, program, a[j])
		}
	}
	return nil
}

func isBatch(program string) bool {
	ext := strings.ToLower(winExt(program))
	return ext == ".bat" || ext == ".cmd"
}

// checkStrings refuses what cannot reach Windows unchanged: NUL bytes end a
// UTF-16 string early and invalid UTF-8 would be replaced by U+FFFD, so
// the child would get something other than what the policy approved.
func checkStrings(what string, ss []string) error {
	for i, s := range ss {
		if err := checkString(s); err != nil {
			return fmt.Errorf("windows launcher: %s %d %q: %w", what, i, s, err)
		}
	}
	return nil
}

func checkString(s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return errors.New("contains a NUL byte")
	}
	if !utf8.ValidString(s) {
		return errors.New("is not valid UTF-8")
	}
	return nil
}
