package linux

import (
	"os"
	"strconv"
	"strings"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// Available reports whether linux mode can be enforced here: Landlock with
// at least the ABI aar-exec requires. It is one syscall, cheap enough for
// every launch, where Probe is for doctor.
func Available() bool { return landlockABI() >= minABI }

// Probe reports what this machine lets the Linux launcher enforce.
func Probe() Report {
	r := Report{ABI: landlockABI(), Root: os.Geteuid() == 0, MinABI: minABI}
	if r.ABI > 0 {
		if e, err := ll.LandlockGetErrata(); err == nil {
			r.Errata = e
		}
		r.FSRights = names(handledRights(r.ABI))
		r.Scopes = scopeNames(handledScopes(r.ABI))
	}
	r.Enforceable = r.ABI >= minABI
	r.Rlimits = []string{"core", "data", "nproc"}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
				r.CapEff = strings.TrimSpace(v)
				if n, err := strconv.ParseUint(r.CapEff, 16, 64); err == nil {
					r.CanDropBounding = n&(1<<capSetPCap) != 0
				}
			}
		}
	}
	return r
}
