package events

import (
	"fmt"
	"strings"
)

// FingerprintLen is how many hex characters of a head hash a fingerprint
// keeps: 48 bits, short enough to read aloud or note on paper, long
// enough that a forged history matching one by chance needs about 2^47
// tries.
const FingerprintLen = 12

// Fingerprint is the short form of a stream's head hash that people keep
// as witnesses (a closed evening shows it): its first 12 hex characters
// in groups of four, "ab12-cd34-ef56". A history that still ends at that
// head has the same fingerprint; one cut or changed at or before it has
// not.
func Fingerprint(hash string) string {
	if len(hash) < FingerprintLen {
		return ""
	}
	h := strings.ToLower(hash[:FingerprintLen])
	return h[0:4] + "-" + h[4:8] + "-" + h[8:12]
}

// ParseFingerprint reads a fingerprint as a person may type it (any case,
// with or without the dashes or spaces) into the form Fingerprint writes.
func ParseFingerprint(s string) (string, error) {
	hexOnly := strings.Map(func(r rune) rune {
		if r == '-' || r == ' ' {
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(s)))
	if len(hexOnly) != FingerprintLen || strings.Trim(hexOnly, "0123456789abcdef") != "" {
		return "", fmt.Errorf("a fingerprint is %d hex characters, such as ab12-cd34-ef56; %q is not one", FingerprintLen, s)
	}
	return Fingerprint(hexOnly), nil
}
