package policy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// MaxConfigSize is the largest config file [ParseConfig] accepts.
const MaxConfigSize = 4 << 20

// Config is the whole config file: the Aar AgentConfig's `safety` object plus
// aar-exec's own `aar_exec` object. Other top-level keys of an Aar config are
// accepted and ignored.
type Config struct {
	Safety Safety       `json:"safety"`
	Exec   ExecSettings `json:"aar_exec"`
}

// Safety is the `safety` object of an Aar agent config, with the same keys
// and meanings.
type Safety struct {
	ReadOnly                  bool          `json:"read_only"`
	RequireApprovalForWrites  bool          `json:"require_approval_for_writes"`
	RequireApprovalForExecute bool          `json:"require_approval_for_execute"`
	ApprovalMode              string        `json:"approval_mode"` // "auto", "ask_for_dangerous" or "ask_for_writes"
	DeniedPaths               []string      `json:"denied_paths"`
	AllowedPaths              []string      `json:"allowed_paths"`
	PathRules                 []PathRule    `json:"path_rules"`
	CommandRules              []CommandRule `json:"command_rules"`
	DeniedCommands            []string      `json:"denied_commands"`
	LogAllCommands            bool          `json:"log_all_commands"`
	Sandbox                   Sandbox       `json:"sandbox"`
}

// A PathRule decides access to the paths matching a doublestar glob.
// Access is "read", "write" or empty for both.
type PathRule struct {
	Pattern string `json:"pattern"`
	Action  Action `json:"action"`
	Access  string `json:"access,omitempty"`
}

// A CommandRule decides commands whose argv starts with Pattern, compared
// token by token with a glob per token; a final "*" token matches any rest.
type CommandRule struct {
	Pattern string `json:"pattern"`
	Action  Action `json:"action"`
}

// Sandbox selects the sandbox mode and holds the per-mode settings.
type Sandbox struct {
	Mode    string         `json:"mode"` // "", "local", "linux", "windows" or "wsl"
	Linux   LinuxSandbox   `json:"linux"`
	Windows WindowsSandbox `json:"windows"`
	WSL     WSLSandbox     `json:"wsl"`
}

// LinuxSandbox holds the settings of the linux sandbox mode.
type LinuxSandbox struct {
	Workspace   string `json:"workspace"`
	MaxMemoryMB int    `json:"max_memory_mb"`
}

// WindowsSandbox holds the settings of the windows sandbox mode.
type WindowsSandbox struct {
	Workspace       string `json:"workspace"`
	MaxMemoryMB     int    `json:"max_memory_mb"`
	MaxProcesses    int    `json:"max_processes"`
	UseLowIntegrity bool   `json:"use_low_integrity"`
}

// WSLSandbox holds the settings of the wsl sandbox mode.
type WSLSandbox struct {
	Profile     string `json:"profile"`
	Distro      string `json:"distro"`
	Shell       string `json:"shell"`
	Workspace   string `json:"workspace"`
	User        string `json:"user"`
	MaxMemoryMB int    `json:"max_memory_mb"`
}

// ExecSettings is aar-exec's own object, the top-level key "aar_exec".
type ExecSettings struct {
	Audit            Audit    `json:"audit"`
	Timeout          Duration `json:"timeout"`
	AllowWrite       []string `json:"allow_write"`
	Env              string   `json:"env"` // "inherit" or "strict"
	PassEnv          []string `json:"pass_env"`
	MaxProcesses     int      `json:"max_processes"`
	Shell            string   `json:"shell"`
	BestEffort       bool     `json:"best_effort"`
	AllowHome        bool     `json:"allow_home"`
	AllowSecretReads bool     `json:"allow_secret_reads"`
	ApprovalsFile    string   `json:"approvals_file"`
	Quiet            bool     `json:"quiet"` // no warnings on stderr
}

// Audit configures the audit log.
type Audit struct {
	Path        string `json:"path"`
	HMACKeyFile string `json:"hmac_key_file"`
	BestEffort  bool   `json:"best_effort"`
}

// Duration is a [time.Duration] written in JSON as a Go duration string
// such as "90s" or "5m".
type Duration time.Duration

// UnmarshalJSON reads a Go duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"90s\"")
	}
	if s == "" {
		*d = 0
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v < 0 {
		return fmt.Errorf("negative duration %q", s)
	}
	*d = Duration(v)
	return nil
}

// MarshalJSON writes the duration as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// The built-in lists, from the Aar seed. Functions, not variables, so that
// nothing at package level can be mutated.
func defaultDeniedPaths() []string {
	return []string{
		"/etc/shadow", "/etc/passwd", "/etc/sudoers", "/etc/sudoers.d/**",
		"**/.env", "**/.env.*", "**/credentials", "**/credentials.*",
		"**/secrets", "**/secrets.*", "**/*.pem", "**/*.key", "**/*.p12", "**/*.pfx",
		"**/.ssh/**", "**/id_rsa", "**/id_dsa", "**/id_ecdsa", "**/id_ed25519",
		"**/.aws/**", "**/.azure/**", "**/.config/gcloud/**",
		"**/.netrc", "**/.npmrc", "**/.pypirc",
		// Beyond the seed, appended so that the seed's indices stay put:
		// the shadow files' backups and other common credential stores.
		"/etc/shadow-", "/etc/gshadow", "/etc/gshadow-", "**/.git-credentials",
		"**/.gnupg/**", "**/.kube/config", "**/.docker/config.json",
	}
}

// Default returns the built-in configuration: the seed's denied paths,
// approval mode "auto" and environment mode "inherit". The default denied
// commands are structural rules that are always in force, so
// Safety.DeniedCommands starts empty.
func Default() *Config {
	return &Config{
		Safety: Safety{
			ApprovalMode: ApprovalAuto,
			DeniedPaths:  defaultDeniedPaths(),
			// The Aar design's default; a file can still say false.
			Sandbox: Sandbox{Windows: WindowsSandbox{UseLowIntegrity: true}},
		},
		Exec: ExecSettings{Env: "inherit"},
	}
}

// The approval modes of Safety.ApprovalMode.
const (
	ApprovalAuto            = "auto"
	ApprovalAskForDangerous = "ask_for_dangerous"
	ApprovalAskForWrites    = "ask_for_writes"
)

// ParseConfig decodes a config file onto [Default]. The file's denied_paths
// and denied_commands are appended to the defaults, never replacing them;
// exceptions are made with path_rules and command_rules, which are evaluated
// first. Unknown keys inside `safety` or `aar_exec` are errors that name the
// key and the file. filename is used only in messages.
func ParseConfig(filename string, data []byte) (*Config, error) {
	if len(data) > MaxConfigSize {
		return nil, fmt.Errorf("policy: config %s: larger than %d bytes", filename, MaxConfigSize)
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		line, col := lineCol(data, int64(i))
		return nil, fmt.Errorf("policy: config %s:%d:%d: NUL byte", filename, line, col)
	}
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("policy: config %s: invalid UTF-8", filename)
	}
	c := Default()
	defPaths := c.Safety.DeniedPaths
	c.Safety.DeniedPaths = nil
	// Unmarshal first: its syntax errors carry offsets from the start of
	// the file, which the token walk's do not.
	if err := json.Unmarshal(data, c); err != nil {
		return nil, jsonError(filename, data, err)
	}
	if err := checkKeys(filename, data); err != nil {
		return nil, err
	}
	c.Safety.DeniedPaths = append(defPaths, c.Safety.DeniedPaths...)
	if err := c.validate(); err != nil {
		return nil, fmt.Errorf("policy: config %s: %w", filename, err)
	}
	return c, nil
}

// AddDeniedPaths appends globs to the denied paths; it never removes any.
// Empty strings are skipped.
func (c *Config) AddDeniedPaths(globs ...string) {
	for _, g := range globs {
		if g = strings.TrimSpace(g); g != "" {
			c.Safety.DeniedPaths = append(c.Safety.DeniedPaths, g)
		}
	}
}

// AddDeniedCommands appends commands to the denied commands; it never
// removes any. Empty strings are skipped.
func (c *Config) AddDeniedCommands(cmds ...string) {
	for _, s := range cmds {
		if s = strings.TrimSpace(s); s != "" {
			c.Safety.DeniedCommands = append(c.Safety.DeniedCommands, s)
		}
	}
}

func (c *Config) validate() error {
	s := &c.Safety
	switch s.ApprovalMode {
	case "":
		s.ApprovalMode = ApprovalAuto
	case ApprovalAuto, ApprovalAskForDangerous, ApprovalAskForWrites:
	default:
		return fmt.Errorf("safety.approval_mode: unknown mode %q (want auto, ask_for_dangerous or ask_for_writes)", s.ApprovalMode)
	}
	switch s.Sandbox.Mode {
	case "", "local", "linux", "windows", "wsl":
	default:
		return fmt.Errorf("safety.sandbox.mode: unknown mode %q (want local, linux, windows or wsl)", s.Sandbox.Mode)
	}
	for i, r := range s.PathRules {
		switch r.Access {
		case "", "read", "write":
		default:
			return fmt.Errorf("safety.path_rules[%d].access: unknown access %q (want read or write)", i, r.Access)
		}
		if r.Pattern == "" {
			return fmt.Errorf("safety.path_rules[%d].pattern: empty", i)
		}
	}
	for i, r := range s.CommandRules {
		if strings.TrimSpace(r.Pattern) == "" {
			return fmt.Errorf("safety.command_rules[%d].pattern: empty", i)
		}
	}
	switch c.Exec.Env {
	case "":
		c.Exec.Env = "inherit"
	case "inherit", "strict":
	default:
		return fmt.Errorf("aar_exec.env: unknown mode %q (want inherit or strict)", c.Exec.Env)
	}
	for name, n := range map[string]int{
		"safety.sandbox.linux.max_memory_mb":   s.Sandbox.Linux.MaxMemoryMB,
		"safety.sandbox.windows.max_memory_mb": s.Sandbox.Windows.MaxMemoryMB,
		"safety.sandbox.windows.max_processes": s.Sandbox.Windows.MaxProcesses,
		"safety.sandbox.wsl.max_memory_mb":     s.Sandbox.WSL.MaxMemoryMB,
		"aar_exec.max_processes":               c.Exec.MaxProcesses,
	} {
		if n < 0 {
			return fmt.Errorf("%s: negative value %d", name, n)
		}
	}
	return nil
}

// checkKeys walks the JSON tokens and rejects keys unknown to the structs
// under "safety" and "aar_exec", and duplicate keys there: with a duplicate,
// encoding/json silently keeps the last one, which a reviewer may not see.
func checkKeys(filename string, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return jsonError(filename, data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("policy: config %s: the top level must be a JSON object", filename)
	}
	// Keys the Aar CLI knows and aar-exec does not are skipped at the top
	// level only; below it every key must be known.
	skip := func(string) error {
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return jsonError(filename, data, err)
		}
		return nil
	}
	if err := walkObject(filename, data, dec, reflect.TypeFor[Config](), "", skip); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		line, col := lineCol(data, dec.InputOffset())
		return fmt.Errorf("policy: config %s:%d:%d: data after the top-level object", filename, line, col)
	}
	return nil
}

// walkKeys consumes one JSON value of Go type t, checking object keys.
func walkKeys(filename string, data []byte, dec *json.Decoder, t reflect.Type, path string) error {
	start := dec.InputOffset()
	tok, err := dec.Token()
	if err != nil {
		return jsonError(filename, data, err)
	}
	d, isDelim := tok.(json.Delim)
	switch {
	case isDelim && d == '{' && t.Kind() == reflect.Struct:
		return walkObject(filename, data, dec, t, path, func(key string) error {
			// Point at the start of the key, not after it.
			quoted, _ := json.Marshal(key)
			line, col := lineCol(data, dec.InputOffset()-int64(len(quoted)))
			return fmt.Errorf("policy: config %s:%d:%d: unknown key %q in %s", filename, line, col, key, path)
		})
	case isDelim && d == '[' && t.Kind() == reflect.Slice:
		for i := 0; dec.More(); i++ {
			if err := walkKeys(filename, data, dec, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		if _, err := dec.Token(); err != nil {
			return jsonError(filename, data, err)
		}
		return nil
	case isDelim:
		line, col := lineCol(data, start)
		return fmt.Errorf("policy: config %s:%d:%d: %s: unexpected %s", filename, line, col, path, kindName(d))
	}
	return nil // scalars are type-checked by json.Unmarshal
}

// walkObject checks the keys of a JSON object of Go struct type t whose
// opening brace dec has just read, through its closing brace: each known
// key once, its value walked; an unknown key is handed to unknown, which
// consumes its value or fails. path is "" at the top level.
func walkObject(filename string, data []byte, dec *json.Decoder, t reflect.Type, path string, unknown func(key string) error) error {
	seen := map[string]bool{}
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return jsonError(filename, data, err)
		}
		key, _ := kt.(string)
		f, ok := fieldByTag(t, key)
		if !ok {
			if err := unknown(key); err != nil {
				return err
			}
			continue
		}
		if seen[key] {
			if path == "" {
				return fmt.Errorf("policy: config %s: duplicate key %q", filename, key)
			}
			return fmt.Errorf("policy: config %s: duplicate key %q in %s", filename, key, path)
		}
		seen[key] = true
		child := key
		if path != "" {
			child = path + "." + key
		}
		if err := walkKeys(filename, data, dec, f.Type, child); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return jsonError(filename, data, err)
	}
	return nil
}

func kindName(d json.Delim) string {
	if d == '{' {
		return "object"
	}
	return "array"
}

func fieldByTag(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

func jsonError(filename string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		// Offset is just past the offending byte.
		line, col := lineCol(data, syn.Offset-1)
		return fmt.Errorf("policy: config %s:%d:%d: %s", filename, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := lineCol(data, typ.Offset)
		field := typ.Field
		if field == "" {
			field = "top level"
		}
		return fmt.Errorf("policy: config %s:%d:%d: %s: want %s, got JSON %s", filename, line, col, field, typ.Type, typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		line, col := lineCol(data, int64(len(data)))
		return fmt.Errorf("policy: config %s:%d:%d: unexpected end of JSON input", filename, line, col)
	}
	return fmt.Errorf("policy: config %s: %w", filename, err)
}

// lineCol turns a byte offset into a 1-based line and column (in bytes).
func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// clone returns a deep copy of the slices Compile keeps.
func (c *Config) clone() *Config {
	d := *c
	s := &d.Safety
	s.DeniedPaths = slices.Clone(s.DeniedPaths)
	s.AllowedPaths = slices.Clone(s.AllowedPaths)
	s.PathRules = slices.Clone(s.PathRules)
	s.CommandRules = slices.Clone(s.CommandRules)
	s.DeniedCommands = slices.Clone(s.DeniedCommands)
	d.Exec.AllowWrite = slices.Clone(d.Exec.AllowWrite)
	d.Exec.PassEnv = slices.Clone(d.Exec.PassEnv)
	return &d
}
