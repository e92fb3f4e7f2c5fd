package windows

import (
	"fmt"
	"strconv"
	"strings"
)

// Integrity level RIDs: the last sub-authority of S-1-16-x.
const (
	ridUntrusted = 0x0000
	ridLow       = 0x1000
	ridMedium    = 0x2000
	ridHigh      = 0x3000
	ridSystem    = 0x4000
)

// integrityName names an integrity RID for messages.
func integrityName(rid uint32) string {
	switch rid {
	case ridUntrusted:
		return "Untrusted"
	case ridLow:
		return "Low"
	case ridMedium:
		return "Medium"
	case ridHigh:
		return "High"
	case ridSystem:
		return "System"
	}
	return fmt.Sprintf("0x%x", rid)
}

// checkIntegrity accepts only Low: higher levels mean writes are not
// confined, and lower ones (Untrusted) mean something else set the token,
// which the launcher did not plan for.
func checkIntegrity(what string, rid uint32) error {
	if rid != ridLow {
		return fmt.Errorf("%s integrity level is %s (0x%x), want Low (0x1000)", what, integrityName(rid), rid)
	}
	return nil
}

// lowLabelSDDL is the label that makes a path writable from Low integrity:
// a mandatory label (ML) of Low (LW) with no-write-up (NW), inherited by
// files (OI) and subdirectories (CI). A file gets no inheritance flags.
func lowLabelSDDL(isDir bool) string {
	if isDir {
		return "S:(ML;OICI;NW;;;LW)"
	}
	return "S:(ML;;NW;;;LW)"
}

// ACE flags and mask bits of a mandatory label, as SDDL may print them.
const (
	labelNoWriteUp = 0x1
	labelNoReadUp  = 0x2
	labelNoExecUp  = 0x4
)

// checkLowLabel reads the SACL part of a security descriptor in SDDL, as
// GetNamedSecurityInfo(LABEL_SECURITY_INFORMATION) prints it, and accepts
// it only if it carries exactly one mandatory label, of Low, with
// no-write-up, that applies to the object itself and (for a directory) is
// inherited by files and subdirectories. An object with no label is
// implicitly Medium, so a missing label is an error too.
func checkLowLabel(sddl string, isDir bool) error {
	if err := checkString(sddl); err != nil {
		return fmt.Errorf("label SDDL %w", err)
	}
	sacl := saclPart(sddl)
	var labels []sddlACE
	for _, ace := range sddlACEs(sacl) {
		if ace.typ == "ML" {
			labels = append(labels, ace)
		}
	}
	switch len(labels) {
	case 0:
		return fmt.Errorf("no integrity label in %q (an unlabelled object is Medium)", sddl)
	case 1:
	default:
		return fmt.Errorf("%d integrity labels in %q, want one", len(labels), sddl)
	}
	l := labels[0]
	if sid := strings.ToUpper(l.sid); sid != "LW" && sid != "S-1-16-4096" {
		return fmt.Errorf("integrity label is %s in %q, want Low (LW)", l.sid, sddl)
	}
	mask, err := labelMask(l.rights)
	if err != nil {
		return fmt.Errorf("integrity label rights in %q: %w", sddl, err)
	}
	if mask&labelNoWriteUp == 0 {
		return fmt.Errorf("integrity label in %q lacks no-write-up (NW)", sddl)
	}
	flags := aceFlags(l.flags)
	if flags["IO"] {
		return fmt.Errorf("integrity label in %q is inherit-only (IO) and does not apply to the object", sddl)
	}
	if isDir && (!flags["OI"] || !flags["CI"]) {
		return fmt.Errorf("integrity label in %q is not inherited by files and folders (want OICI)", sddl)
	}
	return nil
}

// saclPart returns the text after "S:" up to the next top-level component
// (O:, G:, D:) or the end. SIDs and ACEs sit inside parentheses, so only
// text outside them is searched.
func saclPart(sddl string) string {
	start := -1
	depth := 0
	for i := 0; i < len(sddl); i++ {
		switch c := sddl[i]; {
		case c == '(':
			depth++
		case c == ')':
			depth--
		case depth == 0 && i+1 < len(sddl) && sddl[i+1] == ':' && strings.IndexByte("OGDS", c) >= 0:
			if start >= 0 {
				return sddl[start:i]
			}
			if c == 'S' {
				start = i + 2
			}
		}
	}
	if start < 0 {
		return ""
	}
	return sddl[start:]
}

// sddlACE is one ACE string: type;flags;rights;object;inherit-object;sid.
type sddlACE struct{ typ, flags, rights, sid string }

// sddlACEs splits "(A;..)(B;..)" into ACEs; malformed ones are dropped, so
// they can never count as a Low label.
func sddlACEs(acl string) []sddlACE {
	var out []sddlACE
	for {
		i := strings.IndexByte(acl, '(')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(acl[i:], ')')
		if j < 0 {
			return out
		}
		f := strings.Split(acl[i+1:i+j], ";")
		acl = acl[i+j+1:]
		if len(f) < 6 {
			continue
		}
		out = append(out, sddlACE{typ: strings.ToUpper(f[0]), flags: strings.ToUpper(f[1]), rights: strings.ToUpper(f[2]), sid: f[5]})
	}
}

// labelMask decodes NW/NR/NX letters or a hex mask.
func labelMask(rights string) (uint32, error) {
	if strings.HasPrefix(rights, "0X") {
		v, err := strconv.ParseUint(rights[2:], 16, 32)
		if err != nil {
			return 0, fmt.Errorf("bad mask %q", rights)
		}
		return uint32(v), nil
	}
	if len(rights)%2 != 0 {
		return 0, fmt.Errorf("bad rights %q", rights)
	}
	var m uint32
	for i := 0; i < len(rights); i += 2 {
		switch rights[i : i+2] {
		case "NW":
			m |= labelNoWriteUp
		case "NR":
			m |= labelNoReadUp
		case "NX":
			m |= labelNoExecUp
		default:
			return 0, fmt.Errorf("unknown label right %q", rights[i:i+2])
		}
	}
	return m, nil
}

// aceFlags splits "OICIID" into its two-letter flags.
func aceFlags(s string) map[string]bool {
	m := map[string]bool{}
	for i := 0; i+1 < len(s); i += 2 {
		m[s[i:i+2]] = true
	}
	return m
}
