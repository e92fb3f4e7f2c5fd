//go:build windows

package audit

import "io/fs"

// checkKeyMode does nothing on Windows, where mode bits do not describe
// access: the key file inherits the ACL of the user's profile directory.
func checkKeyMode(fs.FileInfo) error { return nil }

// checkLogMode does nothing on Windows; see checkKeyMode.
func checkLogMode(fs.FileInfo) error { return nil }
