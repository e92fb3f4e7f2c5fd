package redact

import (
	"iter"
	"regexp"
	"strings"
	"sync"
)

// A rule finds one family of provider tokens. Its regexp's first group is
// the secret; whatever the match holds outside that group (the type prefix,
// the host of a webhook) is kept so a reader still knows what was there.
//
// The table is static data: nothing of it is built at start-up, and the
// regexps compile on their rule's first trigger, since most command lines
// trigger no rule at all and compiling every rule up front cost about 1 ms
// on each aar-exec launch.
type rule struct {
	name string
	// triggers are lower case; a line without one never runs the rule. A
	// rule whose regexp starts with \b (not (?i)) is only tried where one
	// starts, so each of its alternatives needs a trigger.
	triggers []string
	// minRun is the shortest word (run of letters, digits, '_' and '-')
	// a trigger can start for this rule; dotted prefixes (hvs., SG.) use 0.
	minRun int
	re     string
	check  func(secret string) bool // optional extra test on the secret
	need   string                   // a literal the line must also hold, or ""
	// wholeLine rules may match text before their trigger (a user name
	// before @tcp(); the others are searched from just before the
	// first trigger, which spares long lines most of the regexp work.
	wholeLine bool
}

var rules = [...]rule{
	{"github", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, 20, `\bgh[pousr]_([A-Za-z0-9]{16,})`, nil, "", false},
	{"github-pat", []string{"github_pat_"}, 27, `\bgithub_pat_([A-Za-z0-9_]{16,})`, nil, "", false},
	{"gitlab", []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glimt-", "glsoat-", "glffct-", "glagent-", "gloas-", "glft-"}, 20,
		`\bgl(?:pat|dt|rt|ptt|cbt|imt|soat|ffct|agent|oas|ft)-([A-Za-z0-9_-]{16,})`, nil, "", false},
	{"slack", []string{"xoxa-", "xoxb-", "xoxp-", "xoxo-", "xoxs-", "xoxe-", "xoxr-"}, 13, `\bxox[abposer]-([A-Za-z0-9-]{8,})`, nil, "", false},
	{"slack-app", []string{"xapp-"}, 17, `\bxapp-([A-Za-z0-9-]{12,})`, nil, "", false},
	{"slack-webhook", []string{"hooks.slack.com"}, 0, `hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9/_-]+)`, nil, "", false},
	{"discord-webhook", []string{"api/webhooks/"}, 0, `/api/webhooks/\d+/([A-Za-z0-9_-]{16,})`, nil, "", false},
	{"stripe", []string{"sk_live_", "sk_test_", "rk_live_", "rk_test_", "pk_live_", "pk_test_"}, 16,
		`\b(?:sk|rk|pk)_(?:live|test)_([A-Za-z0-9]{8,})`, nil, "", false},
	{"stripe-webhook", []string{"whsec_"}, 10, `\bwhsec_([A-Za-z0-9+/=]{16,})`, nil, "", false},
	{"aws-key-id", []string{"akia", "asia", "abia", "acca", "a3t"}, 20, `\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])([A-Z0-9]{16})\b`, nil, "", false},
	{"google-api", []string{"aiza"}, 34, `\bAIza([0-9A-Za-z_-]{30,})`, nil, "", false},
	{"google-oauth", []string{"ya29."}, 0, `\bya29\.([0-9A-Za-z_-]{16,})`, nil, "", false},
	{"google-client-secret", []string{"gocspx-"}, 23, `\bGOCSPX-([0-9A-Za-z_-]{16,})`, nil, "", false},
	{"google-refresh", []string{"1//0"}, 0, `\b1//0([0-9A-Za-z_-]{30,})`, nil, "", false},
	{"openai-anthropic", []string{"sk-"}, 23,
		`\bsk-(?:ant-(?:api|admin|sid|oat|ort)\d\d-|ant-|proj-|svcacct-|admin-|or-v1-|live-)?([A-Za-z0-9_-]{20,})`, nil, "", false},
	{"npm", []string{"npm_"}, 34, `\bnpm_([A-Za-z0-9]{30,})`, nil, "", false},
	{"pypi", []string{"pypi-"}, 35, `\bpypi-([A-Za-z0-9_-]{30,})`, nil, "", false},
	{"docker", []string{"dckr_pat_", "dckr_oat_"}, 25, `\bdckr_(?:pat|oat)_([A-Za-z0-9_-]{16,})`, nil, "", false},
	{"vault", []string{"hvs.", "hvb.", "hvr."}, 0, `\bhv[sbr]\.([A-Za-z0-9_-]{20,})`, nil, "", false},
	{"vault-legacy", []string{"s."}, 0, `\bs\.([A-Za-z0-9]{24})\b`, threeClasses, "", false},
	{"terraform", []string{"atlasv1."}, 0, `\b[A-Za-z0-9]{14}\.atlasv1\.([A-Za-z0-9_=-]{30,})`, nil, "", true},
	{"twilio", []string{"sk"}, 34, `\bSK([0-9a-fA-F]{32})\b`, nil, "", false},
	{"sendgrid", []string{"sg."}, 0, `\bSG\.([A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,})`, nil, "", false},
	{"mailgun", []string{"key-"}, 36, `\bkey-([0-9a-zA-Z]{32})\b`, nil, "", false},
	{"heroku", []string{"hrku-"}, 25, `\bHRKU-([A-Za-z0-9_-]{20,})`, nil, "", false},
	{"digitalocean", []string{"dop_v1_", "doo_v1_", "dor_v1_"}, 39, `\bdo[por]_v1_([a-fA-F0-9]{32,})`, nil, "", false},
	{"shopify", []string{"shpat_", "shpca_", "shppa_", "shpss_"}, 38, `\bshp(?:at|ca|pa|ss)_([a-fA-F0-9]{32})`, nil, "", false},
	{"databricks", []string{"dapi"}, 36, `\bdapi([a-f0-9]{32})\b`, nil, "", false},
	{"age", []string{"age-secret-key-1"}, 36, `\bAGE-SECRET-KEY-1([0-9A-Z]{20,})`, nil, "", false},
	{"telegram", []string{"aa"}, 32, `\b\d{8,10}:(AA[A-Za-z0-9_-]{30,})`, nil, ":AA", true},
	{"square", []string{"sq0atp-", "sq0csp-", "eaaa"}, 25, `\b(?:sq0atp-|sq0csp-|EAAA)([A-Za-z0-9_-]{22,})`, nil, "", false},
	{"prefixed", []string{"hf_", "r8_", "gsk_", "pplx-", "xai-", "glsa_", "glc_", "nrak-", "sntrys_", "sntryu_",
		"pul-", "figd_", "sbp_", "sb_secret_", "nfp_", "rnd_", "fo1_", "pmak-", "lin_api_", "ntn_", "secret_", "atatt",
		"ltai", "cfat_", "cfut_", "tfp_", "ops_", "nvapi-", "api_", "key_", "tok_"}, 22,
		`\b(?:hf_|r8_|gsk_|pplx-|xai-|glsa_|glc_|NRAK-|sntrys_|sntryu_|pul-|figd_|sbp_|sb_secret_|nfp_|rnd_|fo1_|PMAK-|lin_api_|ntn_|secret_|ATATT|LTAI|cfat_|cfut_|tfp_|ops_|nvapi-|api_|key_|tok_)([A-Za-z0-9_-]{20,})`,
		looksRandom, "", false},
	{"doppler", []string{"dp.pt.", "dp.st.", "dp.ct.", "dp.sa.", "dp.scim."}, 0, `\bdp\.(?:pt|st|ct|sa|scim)\.([A-Za-z0-9]{20,})`, nil, "", false},
	{"jwt", []string{"eyj"}, 11, `\beyJ([A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`, nil, "", false},
	{"bearer", []string{"bearer"}, 0, `(?i)\bbearer\s+([A-Za-z0-9._~+/-]{8,}=*)`, notPlainWord, "", false},
	{"go-dsn", []string{"tcp(", "unix(", "udp("}, 0, `[A-Za-z0-9_.-]+:([^\s'"/]+)@(?:tcp|unix|udp)\(`, nil, "", true},
	{"oracle", []string{"sqlplus", "rman", "expdp", "impdp"}, 0,
		`\b(?:sqlplus|rman|expdp|impdp)(?:\s+-[sSlL]\w*)*\s+['"]?[A-Za-z0-9_$#]+/([^@\s'"]+)`, nil, "", false},
	{"smb", []string{"-u", "--user"}, 0, `(?:\s-U\s*|--user[= ])['"]?[A-Za-z0-9_.\\-]+%([^\s'"]+)`, nil, "%", true},
	{"rdp", []string{"p:"}, 0, `(?:^|\s)/p:([^\s]+)`, nil, "/p:", true},
	{"sql-password", []string{"password", "identified"}, 8, `(?i)\b(?:password|identified\s+by)\s+'([^']+)'`, nil, "'", false},
	{"netrc", []string{"password"}, 8, `\bpassword\s+([^\s'"]+)`, nil, "machine ", false},
	{"openssl-pass", []string{"pass:"}, 0, `(?:^|\s)-pass(?:in|out)?\s+['"]?pass:([^\s'"]+)`, nil, "", true},
}

// ruleSet is the index of the rules' triggers by their first two bytes,
// and their regexps, compiled as they are needed. Every match starts a
// word with one of its rule's triggers, so a line is checked only at the
// start of each word, and only the rules it triggers run their regexp.
type ruleSet struct {
	// The (rule, trigger) pairs by the trigger's first two bytes, in two
	// tables: long for rules whose tokens are long words, short for dotted
	// prefixes and context words.
	long, short triggerIndex
	// second[c] has bit c2%64 set for the second byte c2 (lower case) of
	// each trigger starting with c: most words start no trigger, and this
	// rejects nearly all of them before the lists are walked.
	second [256]uint64
	pre    [len(rules)]func(string) bool // see prefilter
	re     [len(rules)]struct {
		once, plainOnce sync.Once
		re, plain       *regexp.Regexp
	}
}

// A triggerIndex hashes triggers by their first two bytes: a word's first
// byte alone selected ten triggers on average, of which one at most had
// the word's second byte.
type triggerIndex struct {
	at   [triggerBuckets + 1]uint16
	refs []triggerRef
}

// triggerBuckets is a power of two, and more than the triggers.
const triggerBuckets = 1024

// bucket returns where triggers starting with c1 c2 (lower case) are.
func bucket(c1, c2 byte) int {
	return (int(c1)<<3 ^ int(c2)) & (triggerBuckets - 1)
}

// lookup returns the (rule, trigger) pairs whose trigger may start with
// c1 c2 in either case, and some others: the caller compares the whole
// trigger.
func (x *triggerIndex) lookup(c1, c2 byte) []triggerRef {
	k := bucket(lowerASCII(c1), lowerASCII(c2))
	return x.refs[x.at[k]:x.at[k+1]]
}

// longRun is the minRun from which a rule's triggers count as long.
const longRun = 8

type triggerRef struct {
	rule   int
	minRun int    // the rule's
	lit    string // lower case
}

// compiledRules builds the index on first use, never at start-up: this
// binary sits in front of every command of a build.
var compiledRules = sync.OnceValue(buildRules)

func buildRules() *ruleSet {
	rs := &ruleSet{}
	for i := range rules {
		rs.pre[i] = prefilter(rules[i].name)
	}
	tables := [2]*triggerIndex{&rs.short, &rs.long}
	// Two passes over the triggers, counting then placing: one allocation
	// per table, where appending to each bucket made hundreds.
	for pass := 0; pass < 2; pass++ {
		var fill [2][triggerBuckets]uint16
		for i := range rules {
			r := &rules[i]
			t := 0 // short
			if r.minRun >= longRun {
				t = 1
			}
			x := tables[t]
			for _, lit := range r.triggers {
				k := bucket(lit[0], lit[1])
				if pass == 0 {
					rs.second[lit[0]] |= 1 << (lit[1] % 64)
					rs.second[upperASCII(lit[0])] |= 1 << (lit[1] % 64)
				} else {
					x.refs[x.at[k]+fill[t][k]] = triggerRef{rule: i, minRun: r.minRun, lit: lit}
				}
				fill[t][k]++
			}
		}
		if pass == 0 {
			for t, x := range tables {
				for k := range triggerBuckets {
					x.at[k+1] = x.at[k] + fill[t][k]
				}
				x.refs = make([]triggerRef, x.at[triggerBuckets])
			}
		}
	}
	return rs
}

// regexp returns the regexp rule i is tried with, compiling it on first
// use. An anchored rule's only matches at the start of its input; plain
// returns the one that searches.
func (rs *ruleSet) regexp(i int) *regexp.Regexp {
	e := &rs.re[i]
	e.once.Do(func() {
		expr := rules[i].re
		if rules[i].anchored() {
			expr = `^(?:` + expr + `)`
		}
		e.re = regexp.MustCompile(expr)
	})
	return e.re
}

// plain returns rule i's regexp as written, compiling it on first use.
func (rs *ruleSet) plain(i int) *regexp.Regexp {
	if !rules[i].anchored() {
		return rs.regexp(i)
	}
	e := &rs.re[i]
	e.plainOnce.Do(func() { e.plain = regexp.MustCompile(rules[i].re) })
	return e.plain
}

// anchored reports whether every match of r starts with one of its
// triggers just after a word boundary (its regexp starts with \b). Such a
// rule is tried at each of those places instead of searched for: without
// a literal prefix the regexp engine tries every byte of the line.
//
// A rule with (?i) folds case the Unicode way ("paſſword" matches, ſ
// being a long s), which the ASCII trigger test would not see; it is
// anchored only when its regexp starts with \b and its one trigger, made
// of letters other than s and k (the two that fold to a rune outside
// ASCII, ſ and K) and followed by an escape, not a quantifier: bearer.
func (r *rule) anchored() bool {
	if r.wholeLine {
		return false
	}
	if strings.HasPrefix(r.re, `\b`) {
		return !strings.Contains(r.re, "(?i")
	}
	const fold = `(?i)\b`
	if len(r.triggers) != 1 || !strings.HasPrefix(r.re, fold) || !foldsInASCII(r.triggers[0]) {
		return false
	}
	rest, ok := strings.CutPrefix(r.re[len(fold):], r.triggers[0])
	return ok && strings.HasPrefix(rest, `\`)
}

// foldsInASCII reports whether lit is lower-case ASCII letters whose every
// case fold is ASCII: not s or k.
func foldsInASCII(lit string) bool {
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c < 'a' || c > 'z' || c == 's' || c == 'k' {
			return false
		}
	}
	return true
}

// maxMisses bounds the tries of an anchored rule that fail on one line.
// A try may read to the end of the line (eyJ-eyJ-eyJ-...), so past this
// many the rest of the line is searched in one go, which stays linear.
const maxMisses = 4

// secrets yields the [a,b) of the secret group of each match of rule i in
// s[from:], in order, the matches not overlapping.
func (rs *ruleSet) secrets(i int, s string, from int) iter.Seq2[int, int] {
	return func(yield func(a, b int) bool) {
		if rules[i].anchored() {
			rest, more := rs.atTriggers(i, s, from, yield)
			if !more {
				return
			}
			from = rest
		}
		for _, m := range rs.plain(i).FindAllStringSubmatchIndex(s[from:], -1) {
			if !yield(from+m[2], from+m[3]) {
				return
			}
		}
	}
}

// atTriggers yields the matches of anchored rule i in s[from:], trying
// its regexp at each trigger. It returns false when it has yielded them
// all or yield asked it to stop; after maxMisses failed tries, it returns
// true and the offset from which the rest of s is to be searched instead.
func (rs *ruleSet) atTriggers(i int, s string, from int, yield func(a, b int) bool) (rest int, more bool) {
	misses := 0
	for p := from; p < len(s); p++ {
		// \b before a trigger, whose first byte is a word character
		if p > 0 && isWordByte(s[p-1]) || !rules[i].startsAt(s[p:]) {
			continue
		}
		if misses == maxMisses {
			// s[p-1] starts no match: one byte of context for \b.
			return p - 1, true
		}
		m := rs.regexp(i).FindStringSubmatchIndex(s[p:])
		if m == nil {
			misses++
			continue
		}
		if !yield(p+m[2], p+m[3]) {
			return 0, false
		}
		p += max(m[1], 1) - 1 // the next match starts after this one
	}
	return 0, false
}

// startsAt reports whether s starts with one of r's triggers.
func (r *rule) startsAt(s string) bool {
	for _, t := range r.triggers {
		if hasPrefixFold(s, t) {
			return true
		}
	}
	return false
}

// maxRules bounds the rule table, whose sets are two 64-bit words.
const maxRules = 128

// The build fails if the table outgrows its sets.
var _ [maxRules - len(rules)]struct{}

// triggered returns a bit set of the rules whose triggers start a word of
// s, ASCII case-insensitively, looking only at word starts. For each rule
// in the set, first holds the offset of its first trigger.
func (rs *ruleSet) triggered(s string, first *[maxRules]int32) (set [2]uint64) {
	var needDone [2]uint64 // rules whose need literal was searched for, and failed
	for i := 0; i < len(s); {
		if !isRunByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isRunByte(s[j]) {
			j++
		}
		// Every trigger is two bytes or longer, and most words start none.
		if i+1 == len(s) || !rs.mayStart(s[i], s[i+1]) {
			i = j
			continue
		}
		lists := [2][]triggerRef{}
		if j-i >= longRun {
			lists[0] = rs.long.lookup(s[i], s[i+1])
		}
		// Short triggers are a dotted prefix (hvs.), a word before '(' or
		// ':' (tcp(, pass:), or a short word of their own (bearer, -U).
		if j-i < longRun || j < len(s) && strings.IndexByte(".(/:%", s[j]) >= 0 {
			lists[1] = rs.short.lookup(s[i], s[i+1])
		}
		for _, refs := range lists {
			for _, t := range refs {
				bit := uint64(1) << (t.rule % 64)
				if j-i < t.minRun || (set[t.rule/64]|needDone[t.rule/64])&bit != 0 || !hasPrefixFold(s[i:], t.lit) {
					continue
				}
				r := &rules[t.rule]
				// Search for the need literal once per line, not once per
				// trigger, to stay linear.
				if r.need != "" && !strings.Contains(s, r.need) {
					needDone[t.rule/64] |= bit
					continue
				}
				set[t.rule/64] |= bit
				first[t.rule] = int32(i)
			}
		}
		i = j
	}
	return set
}

// mayStart reports whether a word starting with c1 c2 may start a
// trigger: c1 in either case, c2 compared in lower case.
func (rs *ruleSet) mayStart(c1, c2 byte) bool {
	return rs.second[c1]&(1<<(lowerASCII(c2)%64)) != 0
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

// threeClasses reports whether s mixes upper case, lower case and digits.
func threeClasses(s string) bool {
	_, u, l, d, _ := charStats(s)
	return u > 0 && l > 0 && d > 0
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
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
	var first [maxRules]int32
	set := rs.triggered(c.s, &first)
	if set == [2]uint64{} {
		return false
	}
	found := false
	for i := range rules {
		if set[i/64]&(1<<(i%64)) == 0 {
			continue
		}
		r := &rules[i]
		from := 0
		if !r.wholeLine && first[i] > 0 {
			from = int(first[i]) - 1 // one byte of context for \b
		}
		if pre := rs.pre[i]; pre != nil && !pre(c.s[from:]) {
			continue
		}
		for a, b := range rs.secrets(i, c.s, from) {
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
