package redact

import "strings"

// strength says how sure a name is to hold a secret.
type strength int

const (
	notSecret strength = iota
	// weak names (DEPLOY_KEY, SESSION, AUTH) hide a secret only when the
	// value also looks like one, so `--sort-key name` survives.
	weak
	// strong names (TOKEN, PASSWORD, SECRET, ...) hide any real value.
	strong
)

// SecretName reports whether an environment variable, flag, header, JSON
// field or query parameter called name is expected to hold a credential.
//
// The name is split into words at '_', '-', '.', '/', ':' and camelCase
// boundaries, so GITHUB_TOKEN, --api-key, apiKey, X-Api-Key and
// auth.password all match. A name matches when a word ends in TOKEN,
// SECRET, PASSWORD, PASSWD, PASSPHRASE, CREDENTIAL(S), COOKIE or SIGNATURE,
// when a word is PASS, PWD, PW, PAT, SIG, AUTH, BEARER or AUTHORIZATION, or
// when it ends in KEY (API_KEY, ACCESS_KEY, STRIPE_KEY, ACCOUNTKEY, ...).
// Names that describe a secret rather than hold one do not match: those
// ending in FILE, PATH, DIR, URL, ID, NAME, TYPE, TTL and the like
// (GOOGLE_APPLICATION_CREDENTIALS_FILE, TOKEN_URL, AWS_ACCESS_KEY_ID),
// flags such as --password-stdin or --with-token, public, sort and
// partition keys, session plumbing (DBUS_SESSION_BUS_ADDRESS,
// DESKTOP_SESSION) and the shell's own PWD and OLDPWD (upper case: a pwd=
// query parameter is a password). It is meant for scrubbing an
// environment; redaction also masks values of SESSION, SALT or PIN names
// when they look random.
func SecretName(name string) bool {
	st, keyed := classifyName(name)
	return st == strong || st == weak && keyed
}

// nameStrength classifies name; see [SecretName].
func nameStrength(name string) strength {
	st, _ := classifyName(name)
	return st
}

// classifyName is nameStrength, also saying whether a weak result comes
// from a KEY word (STRIPE_KEY, a likely secret, which [SecretName] counts)
// rather than from SESSION, SALT, PIN and the like (DESKTOP_SESSION, which
// it does not, so environment scrubbing keeps it).
func classifyName(name string) (best strength, keyed bool) {
	if !maySecretName(name) {
		return notSecret, false
	}
	return classifyWords(name)
}

// maySecretName reports whether name holds, in either case, one of the
// parts below. Every word that makes a name secret holds one (PW, PASS,
// PAT and PIN; SIG, SESS, SAS, SALT, SEED and SECRET; CONN for CONNSTR and
// CONNECTION_STRING; ...), and words are runs of the name's letters and
// digits, so a name without any is notSecret. Most names (--env, GOFLAGS,
// dry-run) are turned away here without being split into words;
// TestMaySecretName checks the parts against classifyWords.
func maySecretName(name string) bool {
	for i := 0; i+1 < len(name); i++ {
		// Most places start no part: look at two bytes before the lists.
		if c := name[i] | 0x20; c-'a' >= 26 || partPairs[c&31]>>((name[i+1]|0x20)&31)&1 == 0 {
			continue
		}
		for _, part := range secretParts[name[i]&31] {
			if hasPrefixFold(name[i:], part) {
				return true
			}
		}
	}
	return false
}

// secretParts are the parts maySecretName looks for, by their first
// letter (&31, in either case: no other byte that passes partPairs lands
// on one).
var secretParts = [32][]string{
	'p' & 31: {"pw", "pass", "pat", "pin"},
	's' & 31: {"sig", "sess", "sas", "salt", "seed", "secret"},
	'c' & 31: {"cred", "conn", "cookie"},
	'a' & 31: {"auth"},
	'b' & 31: {"bearer"},
	'k' & 31: {"key"},
	'm' & 31: {"mnemonic"},
	'n' & 31: {"netrc"},
	'o' & 31: {"otp"},
	't' & 31: {"token"},
}

// partPairs[c1&31] has bit c2&31 set for the first two letters c1 c2
// (lower case) of each of secretParts; TestPartPairs holds them together.
var partPairs = [32]uint32{
	'p' & 31: 1<<('w'&31) | 1<<('a'&31) | 1<<('i'&31),
	's' & 31: 1<<('i'&31) | 1<<('e'&31) | 1<<('a'&31),
	'c' & 31: 1<<('r'&31) | 1<<('o'&31),
	'a' & 31: 1 << ('u' & 31),
	'b' & 31: 1 << ('e' & 31),
	'k' & 31: 1 << ('e' & 31),
	'm' & 31: 1 << ('n' & 31),
	'n' & 31: 1 << ('e' & 31),
	'o' & 31: 1 << ('t' & 31),
	't' & 31: 1 << ('o' & 31),
}

// classifyWords is classifyName without the quick test of maySecretName.
func classifyWords(name string) (best strength, keyed bool) {
	name = strings.TrimLeft(name, "-_$")
	if name == "" || len(name) > 64 || name == "PWD" || name == "OLDPWD" {
		// The shell's working directory, spelled in upper case; a
		// lower-case pwd= query parameter is a password.
		return notSecret, false
	}
	var up [128]byte
	var spans [16][2]int
	n, count := splitName(name, &up, &spans)
	if count == 0 || count == len(spans) {
		return notSecret, false
	}
	// upper stays on the stack: it is short and does not escape.
	upper := string(up[:n])
	var buf [16]string // an array, not a slice, so upper does not escape
	for i := range count {
		buf[i] = upper[spans[i][0]:spans[i][1]]
	}
	words := buf[:count]

	last := words[len(words)-1]
	if describingSuffix(last) || describingPrefix(words[0]) {
		return notSecret, false
	}
	for i, w := range words {
		s := wordStrength(w)
		isLast := i == len(words)-1
		wordKeyed := s == weak && strings.HasSuffix(w, "KEY")
		if s == weak && !wordKeyed && !isLast {
			// XDG_SESSION_TYPE, DBUS_SESSION_BUS_ADDRESS: a weak word
			// counts only as the last word.
			s = notSecret
		}
		if s == notSecret && w == "KEY" && i > 0 && isLast {
			wordKeyed = true
			switch words[i-1] {
			case "PUBLIC", "PUB", "SORT", "PARTITION", "PRIMARY", "FOREIGN", "CACHE",
				"HASH", "RANGE", "ROW", "LOOKUP", "MAP", "HOT", "SHORTCUT", "GPG", "PGP",
				"IDEMPOTENCY", "DEDUP", "DEDUPLICATION", "OBJECT", "S3", "BUCKET", "REGISTRY":
				s = notSecret
			case "API", "ACCESS", "SECRET", "PRIVATE", "ACCOUNT", "MASTER", "ENCRYPTION",
				"SIGNING", "AUTH", "LICENSE", "SERVICE", "SUBSCRIPTION", "APP", "CLIENT",
				"SHARED", "DEPLOY", "WEBHOOK", "HMAC", "JWT", "SSH", "ADMIN", "ROOT", "SERVER":
				s = strong
			default:
				s = weak
			}
		}
		if w == "STRING" && i > 0 && (words[i-1] == "CONNECTION" || words[i-1] == "CONN") {
			s = strong
		}
		if s == notSecret && w == "KEY" && len(words) == 1 {
			s, wordKeyed = weak, true
		}
		if s > best {
			best, keyed = s, wordKeyed
		} else if s == best && wordKeyed {
			keyed = true
		}
	}
	return best, keyed
}

// wordStrength classifies one upper-case word of a name.
func wordStrength(w string) strength {
	switch w {
	case "PASS", "PWD", "PW", "PAT", "SIG", "BEARER", "AUTHORIZATION", "PASSIN", "PASSOUT",
		"STOREPASS", "KEYPASS", "SRCSTOREPASS", "DESTSTOREPASS", "SRCKEYPASS", "DESTKEYPASS",
		"SESSID", "PHPSESSID", "JSESSIONID", "SESSIONID", "CREDS", "SAS", "HTPASSWD", "NETRC",
		"AUTH":
		return strong
	case "SESSION", "SALT", "OTP", "PIN", "SEED", "MNEMONIC", "CONNSTR":
		return weak
	case "BYPASS", "COMPASS", "ASKPASS", "PASSTHROUGH", "PASSTHRU", "PASSIVE", "TOKENIZER", "TOKENIZERS",
		"PASSED", "PASSES":
		return notSecret
	}
	for _, suf := range [...]string{
		"TOKEN", "TOKENS", "SECRET", "SECRETS", "PASSWORD", "PASSWORDS", "PASSWD", "PASSPHRASE",
		"CREDENTIAL", "CREDENTIALS", "COOKIE", "COOKIES", "SIGNATURE",
	} {
		if strings.HasSuffix(w, suf) {
			return strong
		}
	}
	if strings.HasPrefix(w, "PASSWORD") || strings.HasPrefix(w, "PASSWD") || strings.HasPrefix(w, "SECRET") {
		return strong
	}
	if len(w) > 3 && strings.HasSuffix(w, "KEY") {
		switch w {
		case "APIKEY", "ACCESSKEY", "SECRETKEY", "PRIVATEKEY", "ACCOUNTKEY", "AUTHKEY",
			"MASTERKEY", "SIGNINGKEY", "LICENSEKEY", "SHAREDACCESSKEY", "SUBSCRIPTIONKEY", "APPKEY":
			return strong
		case "MONKEY", "TURNKEY", "HOTKEY", "PUBKEY", "PUBLICKEY", "HOCKEY", "DONKEY", "WHISKEY":
			return notSecret
		}
		return weak
	}
	return notSecret
}

// describingSuffix lists last words that make a name describe a secret
// (where it is, how long it lives) rather than hold one.
func describingSuffix(w string) bool {
	switch w {
	case "FILE", "FILES", "PATH", "DIR", "SOCK", "SOCKET", "URL", "URI", "ENDPOINT", "HOST",
		"PORT", "USER", "USERNAME", "ID", "IDS", "NAME", "NAMES", "TYPE", "TTL", "TIMEOUT", "EXPIRY",
		"EXPIRES", "EXPIRATION", "EXPIRE", "LENGTH", "LEN", "SIZE", "COUNT", "ENABLED", "DISABLED",
		"MODE", "VERSION", "REGION", "PROFILE", "FORMAT", "ALGORITHM", "ALG", "HEADER", "PREFIX",
		"SCOPE", "SCOPES", "DOMAIN", "ISSUER", "AUDIENCE", "LIMIT", "MAX", "MIN", "ENV", "VAR",
		"FIELD", "KIND", "STDIN", "PROMPT", "HELPER", "COMMAND", "CMD", "PROVIDER", "POLICY",
		"LOCATION", "REF", "ARN", "LABEL", "RETRIES", "INTERVAL", "METHOD", "STRATEGY", "REQUIRED",
		"LIFETIME", "DURATION", "STORE", "BACKEND", "MANAGER", "VAULT", "ENGINE", "SERVICE",
		"SOURCE", "KEYRING", "AGENT", "ROTATION", "RENEWAL", "ALIAS", "PARALLELISM", "STATUS",
		"STRENGTH", "POLICIES", "ROLE", "OUTPUT":
		return true
	}
	return false
}

// describingPrefix lists first words of boolean flags and settings:
// --with-token and --no-password take no value.
func describingPrefix(w string) bool {
	switch w {
	case "NO", "WITH", "USE", "SKIP", "ALLOW", "ENABLE", "DISABLE", "SHOW", "PRINT", "REQUIRE",
		"ASK", "PROMPT", "IGNORE", "INSECURE", "GENERATE", "ROTATE", "NUM", "MAX", "MIN", "IS",
		"HAS", "SAVE", "FORCE", "RESET", "CHANGE", "FORGOT", "VERIFY", "VALIDATE", "CHECK", "LIST",
		"GET", "DELETE", "CREATE", "NEW", "TEST", "PUBLIC", "PUB":
		return true
	}
	return false
}

// splitName writes name (at most 64 bytes) upper-cased to up, with '_'
// at separators and camelCase boundaries, and the [start,end) of each word
// to spans. It returns the bytes written and the number of words, at most
// len(spans).
func splitName(name string, up *[128]byte, spans *[16][2]int) (n, count int) {
	wordLen := 0
	end := func() {
		if wordLen > 0 && count < len(spans) {
			spans[count] = [2]int{n - wordLen, n}
			count++
		}
		if n > 0 && up[n-1] != '_' {
			up[n] = '_'
			n++
		}
		wordLen = 0
	}
	for i := 0; i < len(name) && n < len(up)-2; i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z':
			c -= 'a' - 'A'
		case c >= 'A' && c <= 'Z':
			// "apiKey" and "APIKey" both split before K.
			if i > 0 {
				p := name[i-1]
				if p >= 'a' && p <= 'z' ||
					p >= 'A' && p <= 'Z' && wordLen > 1 && i+1 < len(name) && name[i+1] >= 'a' && name[i+1] <= 'z' {
					end()
				}
			}
		case c >= '0' && c <= '9':
		default:
			end()
			continue
		}
		up[n] = c
		n++
		wordLen++
	}
	end()
	return n, count
}
