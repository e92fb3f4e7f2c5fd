package linux

import (
	"fmt"
	"strings"
)

// A Report is what doctor shows about Landlock on this machine.
type Report struct {
	ABI             int      `json:"landlock_abi"`
	MinABI          int      `json:"required_abi"`
	Errata          int      `json:"landlock_errata"`
	FSRights        []string `json:"fs_rights"`
	Scopes          []string `json:"scopes"`
	Rlimits         []string `json:"rlimits"`
	Root            bool     `json:"root"`
	CapEff          string   `json:"cap_eff,omitempty"`
	CanDropBounding bool     `json:"can_drop_bounding_set"`
	Enforceable     bool     `json:"enforceable"`
}

// String describes the report in plain words.
func (r Report) String() string {
	var b strings.Builder
	if r.ABI == 0 {
		fmt.Fprintf(&b, "landlock: not available (disabled at boot or kernel too old): linux mode cannot confine writes\n")
	} else {
		fmt.Fprintf(&b, "landlock: ABI %d (aar-exec needs %d)\n", r.ABI, r.MinABI)
		fmt.Fprintf(&b, "  filesystem rights handled: %s\n", strings.Join(r.FSRights, ", "))
		if len(r.Scopes) > 0 {
			fmt.Fprintf(&b, "  scopes: %s (the command cannot signal or reach abstract sockets outside its sandbox)\n", strings.Join(r.Scopes, ", "))
		} else {
			fmt.Fprintf(&b, "  scopes: none (ABI < 6: the command can signal processes of its uid outside the sandbox)\n")
		}
	}
	fmt.Fprintf(&b, "rlimits: %s\n", strings.Join(r.Rlimits, ", "))
	if r.Root {
		fmt.Fprintf(&b, "running as root: the command loses every capability and the bounding set (can drop bounding set: %v)\n", r.CanDropBounding)
	}
	if r.Enforceable {
		fmt.Fprintf(&b, "linux mode: enforceable\n")
	} else {
		fmt.Fprintf(&b, "linux mode: NOT enforceable here (use --best-effort or --mode local)\n")
	}
	return b.String()
}
