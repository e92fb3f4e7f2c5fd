package redact

import (
	"regexp"
	"strings"
	"sync"
)

// A rule finds one family of provider tokens. Its regexp's first group is
// the secret; whatever the match holds outside that group (the type prefix,
// the host of a webhook) is kept so a reader still knows what was there.
type rule struct {
	name     string
	triggers []string // lower-case literals, one of which starts a word of every match
	anywhere []string // or: exact literals, one of which occurs in every match
	re       *regexp.Regexp
	check    func(secret string) bool // optional extra test on the secret
}

// ruleSet is the compiled rules plus a first-byte index of their
// triggers. Provider tokens start a word, so a line is checked only at the
// start of each word, and only the rules it triggers run their regexp.
type ruleSet struct {
	rules []rule
	// byFirst[c] lists (rule, trigger) pairs whose trigger starts with c.
	byFirst [256][]triggerRef
}

type triggerRef struct {
	rule int
	lit  string
}

// compiledRules compiles the rules on first use, never at start-up: this
// binary sits in front of every command of a build.
var compiledRules = sync.OnceValue(func() *ruleSet {
	defs := []struct {
		name     string
		triggers []string // prefixed "*" : anywhere literals
		re       string
		check    func(string) bool
	}{
		{"github", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, `\bgh[pousr]_([A-Za-z0-9]{16,})`, nil},
		{"github-pat", []string{"github_pat_"}, `\bgithub_pat_([A-Za-z0-9_]{16,})`, nil},
		{"gitlab", []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glsoat-", "glffct-", "glagent-", "gloas-", "glft-"},
			`\bgl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|agent|oas|ft)-([A-Za-z0-9_-]{16,})`, nil},
		{"slack", []string{"xox"}, `\bxox[abposer]-([A-Za-z0-9-]{8,})`, nil},
		{"slack-app", []string{"xapp-"}, `\bxapp-([A-Za-z0-9-]{12,})`, nil},
		{"slack-webhook", []string{"*hooks.slack.com"}, `hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]+)`, nil},
		{"discord-webhook", []string{"*/api/webhooks/"}, `/api/webhooks/\d+/([A-Za-z0-9_-]{16,})`, nil},
		{"stripe", []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_"}, `\b(?:sk|rk|pk)_(?:live|test)_([A-Za-z0-9]{8,})`, nil},
		{"stripe-webhook", []string{"whsec_"}, `\bwhsec_([A-Za-z0-9+/=]{16,})`, nil},
		{"aws-key-id", []string{"akia", "asia", "abia", "acca", "a3t"}, `\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])([A-Z0-9]{16})\b`, nil},
		{"google-api", []string{"aiza"}, `\bAIza([0-9A-Za-z_-]{30,})`, nil},
		{"google-oauth", []string{"ya29."}, `\bya29\.([0-9A-Za-z_-]{16,})`, nil},
		{"google-client-secret", []string{"gocspx-"}, `\bGOCSPX-([0-9A-Za-z_-]{16,})`, nil},
		{"google-refresh", []string{"1//0"}, `\b1//0([0-9A-Za-z_-]{30,})`, nil},
		{"openai-anthropic", []string{"sk-"},
			`\bsk-(?:ant-(?:api|admin|sid|oat|ort)\d\d-|ant-|proj-|svcacct-|admin-|or-v1-|live-)?([A-Za-z0-9_-]{20,})`, nil},
		{"npm", []string{"npm_"}, `\bnpm_([A-Za-z0-9]{30,})`, nil},
		{"pypi", []string{"pypi-"}, `\bpypi-([A-Za-z0-9_-]{30,})`, nil},
		{"docker", []string{"dckr_"}, `\bdckr_(?:pat|oat)_([A-Za-z0-9_-]{16,})`, nil},
		{"vault", []string{"hvs.", "hvb.", "hvr."}, `\bhv[sbr]\.([A-Za-z0-9_-]{20,})`, nil},
		{"terraform", []string{"atlasv1"}, `\b[A-Za-z0-9]{14}\.atlasv1\.([A-Za-z0-9_=-]{30,})`, nil},
		{"twilio", []string{"sk"}, `\bSK([0-9a-fA-F]{32})\b`, nil},
		{"sendgrid", []string{"sg."}, `\bSG\.([A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})`, nil},
		{"mailgun", []string{"key-"}, `\bkey-([0-9a-zA-Z]{32})\b`, nil},
		{"heroku", []string{"hrku-"}, `\bHRKU-([A-Za-z0-9_-]{20,})`, nil},
		{"digitalocean", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, `\bdo[por]_v1_([a-fA-F0-9]{32,})`, nil},
		{"shopify", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, `\bshp(?:at|ca|pa|ss)_([a-fA-F0-9]{32})`, nil},
		{"databricks", []string{"dapi"}, `\bdapi([a-f0-9]{32})\b`, nil},
		{"age", []string{"age-secret-key-1"}, `\bAGE-SECRET-KEY-1([0-9A-Z]{20,})`, nil},
		{"telegram", []string{"*:AA"}, `\b\d{8,10}:(AA[A-Za-z0-9_-]{30,})`, nil},
		{"square", []string{"sq0atp-", "sq0csp-", "eaaa"}, `\b(?:sq0atp-|sq0csp-|EAAA)([A-Za-z0-9_-]{22,})`, nil},
		{"prefixed", []string{"hf_", "r8_", "gsk_", "pplx-", "xai-", "glsa_", "glc_", "nrak-", "sntrys_", "sntryu_",
			"dp.pt.", "dp.st.", "dp.ct.", "pul-", "figd_", "sbp_", "sb_secret_", "nfp_", "rnd_", "fo1_", "pmak-",
			"lin_api_", "ntn_", "secret_", "atatt", "ltai", "ghr_", "shpat_", "cfat_", "cfut_", "tfp_", "ops_", "nvapi-",
			"api_", "key_", "tok_"},
			`\b(?:hf_|r8_|gsk_|pplx-|xai-|glsa_|glc_|NRAK-|sntrys_|sntryu_|dp\.pt\.|dp\.st\.|dp\.ct\.|pul-|figd_|sbp_|sb_secret_|nfp_|rnd_|fo1_|PMAK-|lin_api_|ntn_|secret_|ATATT|LTAI|cfat_|cfut_|tfp_|ops_|nvapi-|api_|key_|tok_)([A-Za-z0-9_-]{20,})`,
			looksRandom},
		{"jwt", []string{"eyj"}, `\beyJ([A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`, nil},
		{"bearer", []string{"*Bearer", "*bearer", "*BEARER"}, `(?i)\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)`, nil},
		{"go-dsn", []string{"*@tcp(", "*@unix(", "*@udp("}, `[A-Za-z0-9_.-]+:([^\s'"/]+)@(?:tcp|unix|udp)\(`, nil},
		{"oracle", []string{"*sqlplus", "*rman", "*expdp", "*impdp", "*exp ", "*imp "}, `\b(?:sqlplus|rman|expdp|impdp|exp|imp)(?:\s+-[sSlL]\w*)*\s+['"]?[A-Za-z0-9_$#]+/([^@\s'"]+)`, nil},
		{"smb", []string{"*%"}, `(?:\s-U\s*|--user[= ])['"]?[A-Za-z0-9_.\\-]+%([^\s'"]+)`, nil},
		{"rdp", []string{"*/p:"}, `(?:^|\s)/p:([^\s]+)`, nil},
		{"openssl-pass", []string{"*pass:"}, `(?:^|\s)-pass(?:in|out)?\s+['"]?pass:([^\s'"]+)`, nil},
	}
	rs := &ruleSet{rules: make([]rule, len(defs))}
	for i, d := range defs {
		rs.rules[i] = rule{name: d.name, re: regexp.MustCompile(d.re), check: d.check}
		for _, t := range d.triggers {
			if lit, ok := strings.CutPrefix(t, "*"); ok {
				rs.rules[i].anywhere = append(rs.rules[i].anywhere, lit)
				continue
			}
			rs.rules[i].triggers = append(rs.rules[i].triggers, t)
			rs.byFirst[t[0]] = append(rs.byFirst[t[0]], triggerRef{rule: i, lit: t})
			if up := upperASCII(t[0]); up != t[0] {
				rs.byFirst[up] = append(rs.byFirst[up], triggerRef{rule: i, lit: t})
			}
		}
	}
	return rs
})

// triggered returns a bit set of the rules whose triggers start a word
// of s (ASCII case-insensitively) or whose anywhere literals occur in s.
func (rs *ruleSet) triggered(s string) (set [2]uint64) {
	for i := range rs.rules {
		for _, lit := range rs.rules[i].anywhere {
			if strings.Contains(s, lit) {
				set[i/64] |= 1 << (i % 64)
				break
			}
		}
	}
	for i := 0; i < len(s); i++ {
		if !isRunByte(s[i]) || i > 0 && isRunByte(s[i-1]) {
			continue
		}
		for _, t := range rs.byFirst[s[i]] {
			if set[t.rule/64]&(1<<(t.rule%64)) != 0 {
				continue
			}
			if hasPrefixFold(s[i:], t.lit) {
				set[t.rule/64] |= 1 << (t.rule % 64)
			}
		}
	}
	return set
}

// hasPrefixFold reports whether s starts with the lower-case ASCII lit,
// ignoring ASCII case in s.
func hasPrefixFold(s, lit string) bool {
	if len(s) < len(lit) {
		return false
	}
	for i := 0; i < len(lit); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

// isRunByte reports whether c continues a word for trigger purposes.
func isRunByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// providers masks every provider token, keeping its type prefix. It
// reports whether anything matched.
func (c *scrubber) providers() bool {
	rs := compiledRules()
	set := rs.triggered(c.s)
	if set == [2]uint64{} {
		return false
	}
	found := false
	for i := range rs.rules {
		if set[i/64]&(1<<(i%64)) == 0 {
			continue
		}
		r := &rs.rules[i]
		for _, m := range r.re.FindAllStringSubmatchIndex(c.s, -1) {
			a, b := m[2], m[3]
			if a < 0 || a >= b {
				continue
			}
			secret := c.s[a:b]
			if r.check != nil && !r.check(secret) {
				continue
			}
			if isPlaceholder(secret) {
				continue
			}
			c.mask(a, b)
			found = true
		}
	}
	return found
}
