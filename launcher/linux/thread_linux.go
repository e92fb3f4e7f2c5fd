package linux

import (
	"errors"
	"fmt"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Securebits that stop uid 0 from regaining capabilities at execve and
// stop anyone from raising ambient capabilities, locked so the command
// cannot unset them.
const lockedSecurebits = 1<<0 | 1<<1 | // SECBIT_NOROOT(_LOCKED)
	1<<2 | 1<<3 | // SECBIT_NO_SETUID_FIXUP(_LOCKED)
	1<<5 | // SECBIT_KEEP_CAPS_LOCKED
	1<<6 | 1<<7 // SECBIT_NO_CAP_AMBIENT_RAISE(_LOCKED)

const capSetPCap = 8

// restrictThread confines the calling OS thread, which must be locked
// and must never run another goroutine afterwards. Credentials,
// no_new_privs and the Landlock domain are per thread in Linux, so the
// rest of the supervisor stays free to write the audit log.
//
// The order matters: the bounding set and securebits need CAP_SETPCAP, so
// they go before the capability sets are emptied last.
func restrictThread(rulesetFD int) error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capabilities: read: %w", err)
	}
	if data[0].Effective&(1<<capSetPCap) != 0 {
		for c := 0; c <= 63; c++ {
			err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0)
			if errors.Is(err, unix.EINVAL) {
				break // past the last capability this kernel knows
			}
			if err != nil {
				return fmt.Errorf("capabilities: drop %d from the bounding set: %w", c, err)
			}
		}
		if err := unix.Prctl(unix.PR_SET_SECUREBITS, lockedSecurebits, 0, 0, 0); err != nil {
			return fmt.Errorf("capabilities: lock securebits: %w", err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("capabilities: clear ambient set: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if rulesetFD >= 0 {
		if err := ll.LandlockRestrictSelf(rulesetFD, 0); err != nil {
			return fmt.Errorf("landlock: restrict: %w", err)
		}
	}
	data = [2]unix.CapUserData{}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capabilities: clear: %w", err)
	}
	return nil
}
