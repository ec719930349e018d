package events

import (
	"testing"
)

func TestFingerprint(t *testing.T) {
	h := "AB12cd34ef5678901234567890123456789012345678901234567890abcdef12"
	if f := Fingerprint(h); f != "ab12-cd34-ef56" {
		t.Fatalf("Fingerprint: %q", f)
	}
	for _, in := range []string{"ab12-cd34-ef56", "AB12CD34EF56", " ab12 cd34 ef56 "} {
		if f, err := ParseFingerprint(in); err != nil || f != "ab12-cd34-ef56" {
			t.Errorf("%q: %q %v", in, f, err)
		}
	}
	for _, in := range []string{"", "ab12-cd34-ef5", "ab12-cd34-ef567", "xb12-cd34-ef56"} {
		if _, err := ParseFingerprint(in); err == nil {
			t.Errorf("%q taken for a fingerprint", in)
		}
	}
}
