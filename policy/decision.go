package policy

import (
	"encoding/json"
	"fmt"
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
