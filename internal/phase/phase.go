//go:build !phasetrace

// Package phase marks how far a launch has got, for launchbench -phases.
// The marks are recorded only in a binary built with -tags phasetrace
// (make bench-phases); in any other build they are empty functions the
// compiler removes, so the launch path pays nothing for them.
package phase

// Mark records that the launch reached the named phase.
func Mark(name string) {}

// Report writes the recorded marks to stderr.
func Report() {}
