package problem

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorSaysItsEnglishAndKeepsItsKind(t *testing.T) {
	cat := NewCatalogue(map[string]string{"points.range": "points: %d is outside 0–%d", "conflict.closed": "closed"})
	err := fmt.Errorf("record hand 3: %w", cat.Input("points", "points.range", 130, 120))
	pe, ok := As(err)
	if !ok || pe.Kind != Input || pe.Field != "points" || pe.Code != "points.range" || pe.Malformed {
		t.Fatalf("As(%v) = %+v, %v", err, pe, ok)
	}
	if got, want := pe.Error(), "points: 130 is outside 0–120"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !IsKind(err, Input) || IsKind(err, Conflict) {
		t.Error("IsKind does not tell the kinds apart")
	}
	if c := cat.Conflict("conflict.closed"); c.Kind != Conflict || c.Error() != "closed" {
		t.Errorf("Conflict = %+v", c)
	}
	if m := cat.Malformed("x", "points.range", 1, 2); !m.Malformed || m.Kind != Input {
		t.Errorf("Malformed = %+v", m)
	}
	if _, ok := As(errors.New("plain")); ok {
		t.Error("a plain error is not a problem")
	}
}

func TestUnknownCodeSaysSo(t *testing.T) {
	if got := NewCatalogue(nil).NotFound("nope").Error(); got != "unknown problem (nope)" {
		t.Errorf("got %q", got)
	}
}

func TestCatalogueIsImmutable(t *testing.T) {
	src := map[string]string{"a": "A"}
	cat := NewCatalogue(src)
	src["a"] = "changed"
	cat.Messages()["a"] = "changed too"
	if cat.English("a") != "A" {
		t.Errorf("the catalogue changed from outside: %q", cat.English("a"))
	}
}

func TestJoinRefusesACodeTwice(t *testing.T) {
	a := NewCatalogue(map[string]string{"x": "1"})
	b := NewCatalogue(map[string]string{"y": "2"})
	j, err := Join(a, b)
	if err != nil || j.English("x") != "1" || j.English("y") != "2" {
		t.Fatalf("Join = %v, %v", j, err)
	}
	if _, err := Join(a, a); err == nil {
		t.Error("a code defined twice was joined")
	}
}
