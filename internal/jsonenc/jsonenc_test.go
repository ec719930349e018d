package jsonenc

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
)

// randomString is made of the characters JSON escapes and of ordinary
// ones, with now and then a byte that is not UTF-8.
func randomString(rng *rand.Rand) string {
	pieces := []string{"a", "Ö", "ß", " ", "\"", "\\", "<", ">", "&", "\n", "\r", "\t", "\b", "\f", "\x00", "\x1f", "\u2028", "\u2029", "😀", "\xff", "\xe2\x80", "é", "/"}
	var b strings.Builder
	for range rng.IntN(8) {
		b.WriteString(pieces[rng.IntN(len(pieces))])
	}
	return b.String()
}

func randomDecimal(rng *rand.Rand) decimal.Decimal {
	switch rng.IntN(4) {
	case 0:
		return decimal.New(rng.Int64(), int32(rng.IntN(5))-2)
	case 1:
		return decimal.New(rng.Int64N(1000)-500, -2)
	case 2:
		return decimal.New(1, 40).Mul(decimal.NewFromInt(rng.Int64N(9) - 4))
	}
	return decimal.NewFromInt(rng.Int64N(2000) - 1000)
}

// Strings, amounts, maps of amounts and numbers come out byte for byte as
// encoding/json writes them.
func TestAsEncodingJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		s := randomString(rng)
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Fatalf("String(%q) = %s, want %s", s, got, want)
		}
		d := randomDecimal(rng)
		want, _ = json.Marshal(d)
		if got := Decimal(nil, d); string(got) != string(want) {
			t.Fatalf("Decimal(%s) = %s, want %s", d, got, want)
		}
		m := map[string]decimal.Decimal{}
		for range rng.IntN(6) {
			m[randomString(rng)] = randomDecimal(rng)
		}
		if rng.IntN(10) == 0 {
			m = nil
		}
		want, _ = json.Marshal(m)
		if got := DecimalMap(nil, m); string(got) != string(want) {
			t.Fatalf("DecimalMap(%v) = %s, want %s", m, got, want)
		}
		n := rng.IntN(200) - 100
		var p *int
		if rng.IntN(3) > 0 {
			p = &n
		}
		want, _ = json.Marshal(p)
		if got := IntPtr(nil, p); string(got) != string(want) {
			t.Fatalf("IntPtr = %s, want %s", got, want)
		}
	}
}

// Raw takes JSON as encoding/json writes it as it is, and refuses
// anything encoding/json would change.
func TestRaw(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	for range 5000 {
		v := map[string]any{randomString(rng): []any{randomString(rng), 1.5, nil, true, map[string]string{randomString(rng): randomString(rng)}}}
		raw, _ := json.Marshal(v)
		got, ok := Raw(nil, raw)
		if !ok || string(got) != string(raw) {
			t.Fatalf("Raw(%s) = %s, %v", raw, got, ok)
		}
	}
	for _, raw := range []string{`{"a": 1}`, "[1,\n2]", `"<"`, `"a&b"`, "\"\u2028\""} {
		want, _ := json.Marshal(json.RawMessage(raw))
		if got, ok := Raw(nil, []byte(raw)); ok && string(got) != string(want) {
			t.Fatalf("Raw(%q) = %s, but encoding/json writes %s", raw, got, want)
		}
	}
	if got, ok := Raw(nil, nil); !ok || string(got) != "null" {
		t.Fatalf("Raw(nil) = %s", got)
	}
}
