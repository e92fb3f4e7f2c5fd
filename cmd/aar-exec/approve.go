package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/aar-agent/aar-exec/policy"
)

// An approval is one "always" answer, remembered per rule and command.
type approval struct {
	Rule    string `json:"rule"`
	Command string `json:"command"`
}

// approve settles an ASK: a remembered "always", else a question on the
// controlling terminal. With no terminal (agents, CI) the answer is no.
func (a *app) approve(s *settings, j *job, d policy.Decision) policy.Decision {
	if remembered(s.approvalsFile, d.Rule, j.display) {
		return policy.Decision{Action: policy.Allow, Rule: "approved:" + d.Rule, Reason: "approved earlier with \"always\""}
	}
	tty, err := os.OpenFile("/dev/tty", os.O_RDWR, 0)
	if err != nil {
		return d
	}
	defer tty.Close()
	fmt.Fprintf(tty, "aar-exec: %s\n  rule: %s\n  command: %s\nallow? [y]es / [n]o / [a]lways: ", d.Reason, d.Rule, oneLine(j.display))
	line, _ := bufio.NewReader(io.LimitReader(tty, 64)).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return policy.Decision{Action: policy.Allow, Rule: "approved:" + d.Rule, Reason: "approved on the terminal"}
	case "a", "always":
		if err := remember(s.approvalsFile, d.Rule, j.display); err != nil {
			fmt.Fprintf(tty, "aar-exec: could not remember the approval: %v\n", err)
		}
		return policy.Decision{Action: policy.Allow, Rule: "approved:" + d.Rule, Reason: "approved on the terminal, always"}
	}
	return policy.Decision{Action: policy.Deny, Rule: d.Rule, Reason: d.Reason + " (approval refused)"}
}

func loadApprovals(path string) []approval {
	b, err := os.ReadFile(path)
	if err != nil || len(b) > maxConfigBytes {
		return nil
	}
	var list []approval
	if json.Unmarshal(b, &list) != nil {
		return nil
	}
	return list
}

func remembered(path, rule, command string) bool {
	for _, ap := range loadApprovals(path) {
		if ap.Rule == rule && ap.Command == command {
			return true
		}
	}
	return false
}

// remember appends an approval, replacing the file atomically so a crash
// never leaves it half written.
func remember(path, rule, command string) error {
	list := append(loadApprovals(path), approval{rule, command})
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".approvals-*")
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(b, '\n'))
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", "⏎")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
