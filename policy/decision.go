package policy

import (
	"encoding/json"
	"fmt"
	"strings"
)

// An Action is what a rule or a [Decision] says about a command. The zero
// value is Deny, so a Decision that was never filled in fails closed.
type Action int

// The actions, written "deny", "ask" and "allow" in JSON.
const (
	Deny Action = iota
	Ask
	Allow
)

// String returns "deny", "ask" or "allow".
func (a Action) String() string {
	switch a {
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	case Allow:
		return "allow"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// MarshalJSON writes the action as a JSON string.
func (a Action) MarshalJSON() ([]byte, error) {
	switch a {
	case Deny, Ask, Allow:
		return json.Marshal(a.String())
	}
	return nil, fmt.Errorf("policy: marshal unknown action %d", int(a))
}

// UnmarshalJSON reads "allow", "deny" or "ask".
func (a *Action) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("action must be a string: allow, deny or ask")
	}
	switch s {
	case "deny":
		*a = Deny
	case "ask":
		*a = Ask
	case "allow":
		*a = Allow
	default:
		return fmt.Errorf("unknown action %q (want allow, deny or ask)", s)
	}
	return nil
}

// A Decision is the verdict on one request and the rule that reached it.
type Decision struct {
	Action Action `json:"decision"`
	// Rule is a stable id of the deciding rule, such as "default:rm-root",
	// "denied_paths[14]:**/.ssh/**", "command_rules[0]:git push *",
	// "read_only" or "parse"; "default" when nothing objected.
	Rule string `json:"rule"`
	// Reason is one human sentence.
	Reason string `json:"reason"`
}

// String formats the decision for a terminal: "deny (default:rm-root): ...".
func (d Decision) String() string {
	return fmt.Sprintf("%s (%s): %s", d.Action, d.Rule, d.Reason)
}

// Hint says how to allow what the decision asks about or denies, for the
// message the CLI prints when it cannot ask (no terminal). It is empty for
// an allow.
func (d Decision) Hint() string {
	r := d.Rule
	switch {
	case d.Action == Allow:
		return ""
	case r == "parse":
		return "fix the command so that bash can parse it"
	case r == "read_only":
		return `set "safety": {"read_only": false} or drop --read-only`
	case r == "allowed_paths:unenforced":
		return `use sandbox mode linux or windows, which confine writes, or add a "safety.command_rules" entry {"pattern": "<command> *", "action": "allow"}`
	case r == "allowed_paths":
		return `add the path to "safety.allowed_paths" (or --allowed-paths), or to "aar_exec.allow_write"`
	case r == "require_approval_for_execute":
		return `set "safety.require_approval_for_execute" to false, or add a "safety.command_rules" entry {"pattern": "<command> *", "action": "allow"}`
	case r == "require_approval_for_writes" || strings.HasPrefix(r, "approval_mode:"):
		return `add a "safety.command_rules" entry {"pattern": "<command> *", "action": "allow"}, or set "safety.approval_mode" to "auto"`
	case strings.HasPrefix(r, "command_rules["):
		return fmt.Sprintf(`change the action of safety.%s to "allow"`, strings.SplitN(r, ":", 2)[0])
	case strings.HasPrefix(r, "path_rules["):
		return fmt.Sprintf(`change the action of safety.%s to "allow"`, strings.SplitN(r, ":", 2)[0])
	case strings.HasPrefix(r, "denied_paths["):
		return `denied paths cannot be removed; add a "safety.path_rules" entry {"pattern": "<path>", "action": "allow"} for this exact path`
	case strings.HasPrefix(r, "denied_commands["):
		return `denied commands cannot be removed; add a "safety.command_rules" entry {"pattern": "<command> *", "action": "allow"} for this exact command`
	case strings.HasPrefix(r, "default:"):
		return `this is a built-in denial; only a "safety.command_rules" allow entry for this exact command overrides it`
	}
	return ""
}
