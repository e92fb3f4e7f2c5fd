//go:build !windows

package wsl

// canonicalize is a pass-through off Windows: there is no Windows
// filesystem to ask, so the string guard in [Guard] stands alone.
func canonicalize(p winPath) (winPath, error) { return p, nil }
