package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// runFlags are aar-exec's own flags. They are long options bash does not
// have, so a client that calls aar-exec as its shell never collides with
// them. Each can also come from an AAR_* environment variable; flags win
// over the environment, which wins over the config file.
type runFlags struct {
	Workspace        string
	Mode             string
	Config           string
	AuditLog         string
	MaxMemoryMB      int
	MaxProcesses     int
	Timeout          time.Duration
	AllowWrite       []string
	Env              []string
	BestEffort       bool
	ReadOnly         bool
	Quiet            bool
	Shell            string
	AllowHome        bool
	AllowSecretReads bool

	// The Aar CLI's safety flags, same names and meanings.
	RequireApproval   bool
	NoRequireApproval bool
	RestrictToCwd     bool
	NoRestrictToCwd   bool
	DeniedPaths       []string
	AllowedPaths      []string
}

// A flagSpec is one of aar-exec's own flags: its name, the AAR_* variable
// that can set it instead, and the field it fills. sep splits list values.
type flagSpec struct {
	name, env string
	field     func(*runFlags) any
	sep       string
}

// ownFlags is the one table of aar-exec's own flags: shellargs asks it
// which words are ours, and parseFlags fills runFlags from it. The env
// names avoid KEY, TOKEN, SECRET, AUTH and PASS, which some agents strip.
//
// shellargs has already split the command line by bash's grammar, so all
// that is left is turning "--name=value" into a field. kong did that
// before, but building its model from struct tags cost 0.5-0.8 ms of a
// cold start, a third of the launch budget; kong still parses the
// subcommands, where that does not matter.
var ownFlags = []flagSpec{
	{"workspace", "AAR_WORKSPACE", func(f *runFlags) any { return &f.Workspace }, ""},
	{"mode", "AAR_MODE", func(f *runFlags) any { return &f.Mode }, ""},
	{"config", "AAR_CONFIG", func(f *runFlags) any { return &f.Config }, ""},
	{"audit-log", "AAR_AUDIT_LOG", func(f *runFlags) any { return &f.AuditLog }, ""},
	{"max-memory-mb", "AAR_MAX_MEMORY_MB", func(f *runFlags) any { return &f.MaxMemoryMB }, ""},
	{"max-processes", "AAR_MAX_PROCESSES", func(f *runFlags) any { return &f.MaxProcesses }, ""},
	{"timeout", "AAR_TIMEOUT", func(f *runFlags) any { return &f.Timeout }, ""},
	{"allow-write", "AAR_ALLOW_WRITE", func(f *runFlags) any { return &f.AllowWrite }, ":"},
	{"env", "AAR_PASS_ENV", func(f *runFlags) any { return &f.Env }, ","},
	{"shell", "AAR_SHELL", func(f *runFlags) any { return &f.Shell }, ""},
	{"best-effort", "AAR_BEST_EFFORT", func(f *runFlags) any { return &f.BestEffort }, ""},
	{"read-only", "AAR_READ_ONLY", func(f *runFlags) any { return &f.ReadOnly }, ""},
	{"quiet", "AAR_QUIET", func(f *runFlags) any { return &f.Quiet }, ""},
	{"allow-home", "AAR_ALLOW_HOME", func(f *runFlags) any { return &f.AllowHome }, ""},
	{"allow-secret-reads", "AAR_ALLOW_SECRET_READS", func(f *runFlags) any { return &f.AllowSecretReads }, ""},
	{"require-approval", "", func(f *runFlags) any { return &f.RequireApproval }, ""},
	{"no-require-approval", "", func(f *runFlags) any { return &f.NoRequireApproval }, ""},
	{"restrict-to-cwd", "", func(f *runFlags) any { return &f.RestrictToCwd }, ""},
	{"no-restrict-to-cwd", "", func(f *runFlags) any { return &f.NoRestrictToCwd }, ""},
	{"denied-paths", "AAR_DENIED_PATHS", func(f *runFlags) any { return &f.DeniedPaths }, ","},
	{"allowed-paths", "AAR_ALLOWED_PATHS", func(f *runFlags) any { return &f.AllowedPaths }, ","},
}

// ownFlag tells shellargs which long options are aar-exec's own and
// whether they take a value: every flag but the switches does.
func ownFlag(name string) (isOwn, takesValue bool) {
	spec := findFlag(name)
	if spec == nil {
		return false, false
	}
	_, isBool := spec.field(&runFlags{}).(*bool)
	return true, !isBool
}

// parseFlags fills runFlags from aar-exec's own flags, as shellargs found
// them ("--name=value" or "--name"), then from the AAR_* environment for
// what no flag set. Lists given twice add up; AAR_DENIED_PATHS adds to
// --denied-paths, because denied lists only ever grow.
func parseFlags(own []string, getenv func(string) string) (*runFlags, error) {
	var f runFlags
	set := make(map[string]bool, len(own))
	for _, word := range own {
		name, value, hasValue := strings.Cut(strings.TrimPrefix(word, "--"), "=")
		spec := findFlag(name)
		if spec == nil {
			return nil, fmt.Errorf("unknown flag --%s", name)
		}
		if !hasValue {
			value = "true"
		}
		if err := spec.set(&f, value); err != nil {
			return nil, fmt.Errorf("--%s: %v", name, err)
		}
		set[name] = true
	}
	for i := range ownFlags {
		spec := &ownFlags[i]
		v := ""
		if spec.env != "" {
			v = getenv(spec.env)
		}
		if v == "" || (set[spec.name] && spec.name != "denied-paths") {
			continue
		}
		if err := spec.set(&f, v); err != nil {
			return nil, fmt.Errorf("%s: %v", spec.env, err)
		}
	}
	return &f, nil
}

func findFlag(name string) *flagSpec {
	for i := range ownFlags {
		if ownFlags[i].name == name {
			return &ownFlags[i]
		}
	}
	return nil
}

// set parses value into the flag's field; a list gains the value's items.
func (s *flagSpec) set(f *runFlags, value string) error {
	switch p := s.field(f).(type) {
	case *string:
		*p = value
	case *int:
		n, err := strconv.Atoi(value)
		if err != nil {
			return fmt.Errorf("%q is not a whole number", value)
		}
		*p = n
	case *bool:
		on, err := strconv.ParseBool(value)
		if err != nil {
			return fmt.Errorf("%q is not true or false", value)
		}
		*p = on
	case *time.Duration:
		d, err := time.ParseDuration(value)
		if err != nil {
			return fmt.Errorf("%q is not a duration such as 90s", value)
		}
		*p = d
	case *[]string:
		*p = append(*p, strings.Split(value, s.sep)...)
	}
	return nil
}
