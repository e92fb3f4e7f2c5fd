package windows

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf16"
)

// maxEnvBlock caps the environment block (UTF-16 units); Windows itself
// allows 32767 per variable and no fixed total, but a block this big is a
// mistake or an attack, and refusing is cheaper than a confusing failure.
const maxEnvBlock = 1 << 20

// envBlock builds the CREATE_UNICODE_ENVIRONMENT block from env: entries are
// checked (NAME=value, no NUL, valid UTF-8), duplicates are merged without
// regard to case with the last one winning, as Windows names are
// case-insensitive, and the result is sorted the way CreateProcess asks
// (by upper-cased name), each entry NUL-terminated and the block ending in
// an extra NUL.
func envBlock(env []string) ([]uint16, error) {
	if err := checkStrings("environment entry", env); err != nil {
		return nil, err
	}
	type entry struct{ key, kv string }
	seen := make(map[string]int, len(env))
	var entries []entry
	for _, kv := range env {
		name, _, ok := cutEnv(kv)
		if !ok || name == "" || name == "=" {
			return nil, fmt.Errorf("windows launcher: environment entry %q is not NAME=value", kv)
		}
		key := strings.ToUpper(name)
		if i, dup := seen[key]; dup {
			entries[i].kv = kv
			continue
		}
		seen[key] = len(entries)
		entries = append(entries, entry{key, kv})
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.key, b.key) })
	var block []uint16
	for _, e := range entries {
		for _, r := range e.kv {
			block = utf16.AppendRune(block, r)
		}
		block = append(block, 0)
		if len(block) > maxEnvBlock {
			return nil, fmt.Errorf("windows launcher: environment is over %d UTF-16 units", maxEnvBlock)
		}
	}
	if len(block) == 0 {
		block = append(block, 0) // an empty block is two NULs
	}
	return append(block, 0), nil
}

// withTemp points TEMP and TMP at the run's private temporary directory:
// a Low-integrity command cannot write the user's own %TEMP%, and a
// private one also keeps runs apart and is removed afterwards.
func withTemp(env []string, dir string) []string {
	out := make([]string, 0, len(env)+2)
	for _, kv := range env {
		name, _, _ := cutEnv(kv)
		if strings.EqualFold(name, "TEMP") || strings.EqualFold(name, "TMP") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "TEMP="+dir, "TMP="+dir)
}
