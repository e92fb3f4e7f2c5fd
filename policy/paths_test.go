package policy

import "testing"

// The scripts in these tables were allowed by Check with the default
// config while real bash read or wrote a denied path.

// TestCopyIntoDirectory: cp, mv, install, ln and rsync into a directory
// write DIR/basename(SOURCE), whether the directory is the last operand
// or the value of -t.
func TestCopyIntoDirectory(t *testing.T) {
	p := mustCompile(t, Default(), testEnv)
	wantAction(t, p, Deny, []string{
		"cp passwd /etc/",
		"cp passwd /etc",
		"cp -t /etc passwd",
		"cp -t/etc passwd",
		"cp -rt /etc passwd",
		"cp --target-directory=/etc sudoers",
		"cp --target /etc sudoers",
		"install -t /etc sudoers",
		"install -m 644 -t /etc sudoers",
		"install sudoers /etc",
		"mv sudoers /etc/",
		"mv -t /etc sudoers",
		"rsync sudoers /etc/",
		"scp host:sudoers /etc/",
		"ln -sf \"$PWD/sudoers\" /etc/",
		"cp a.txt passwd /etc/",
	})
	wantAction(t, p, Allow, []string{
		"cp config.example config",
		"cp -r assets dist/",
		"install -m755 bin/tool ~/.local/bin/",
		"install -m 755 bin/tool ~/.local/bin/",
		"ln -s ../lib lib",
		"cp -t dist a.txt b.txt",
		"mv -T build/out dist",
		"cp passwd.example /tmp/",
		"rsync -a src/ /tmp/out/",
	})
}
