package shareimage

import (
	"bytes"
	"image"
	_ "image/png"
	"strings"
	"testing"

	"golang.org/x/image/font"
)

// Given a card with long names in the letters tappbook's languages use,
// when it is drawn: the PNG decodes, is 1080 wide and taller than wide,
// and grows with its rows.
func TestCardIsAPortraitPNG(t *testing.T) {
	c := Card{Title: "Württemberg Tapp · 2026-11-28", Subtitle: "Jürgen, Märta, Åsa, Zoë", Note: "Not settled yet",
		Sections: []Section{{Heading: "Standings", Rows: []Row{{Names: []string{"Anna-Katharina Müller-Lüdenscheidt von Übersee-Åström"}, Amount: "−184,00 €", Negative: true}}},
			{Heading: "Who pays whom", Empty: "Everyone is square."}}}
	b, err := PNG(c)
	if err != nil {
		t.Fatal(err)
	}
	img, format, err := image.Decode(bytes.NewReader(b))
	if err != nil || format != "png" {
		t.Fatalf("decode: %v (%s)", err, format)
	}
	if w, h := img.Bounds().Dx(), img.Bounds().Dy(); w != Width || h < MinHeight || h <= w {
		t.Fatalf("%d × %d, want %d wide and portrait", w, h, Width)
	}
	for range 40 {
		c.Sections[0].Rows = append(c.Sections[0].Rows, Row{Names: []string{"Ben"}, Amount: "1,00 €"})
	}
	if b, err = PNG(c); err != nil {
		t.Fatal(err)
	}
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(b)); err != nil || cfg.Height <= MinHeight {
		t.Fatalf("41 rows drawn in %d px, the least height (%v)", cfg.Height, err)
	}
}

// A name too long for its row is cut with an ellipsis to fit; one that
// fits is kept whole, ä and å included; a transfer's two names share the
// room, so that the payee is never cut away whole.
func TestNamesAreCutToFit(t *testing.T) {
	fc, err := newFaces()
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("Åsa-Märta ", 12)
	got := Fit(fc.text, long, 400)
	if !strings.HasSuffix(got, "…") || font.MeasureString(fc.text, got).Ceil() > 400 || !strings.HasPrefix(got, "Åsa-Märta") {
		t.Fatalf("cut to %q (%d px)", got, font.MeasureString(fc.text, got).Ceil())
	}
	if got := Fit(fc.text, "Jürgen", 400); got != "Jürgen" {
		t.Fatalf("a short name became %q", got)
	}
	two := names(fc.text, []string{long, "Zoë Östberg"}, 600)
	if !strings.HasSuffix(two, "→ Zoë Östberg") || font.MeasureString(fc.text, two).Ceil() > 600 || font.MeasureString(fc.text, two).Ceil() < 560 {
		t.Fatalf("a transfer's names became %q (%d px of 600)", two, font.MeasureString(fc.text, two).Ceil())
	}
	// A note longer than a line is said in full, over lines that each fit.
	note := "Noch nicht abgerechnet: das ist der Stand bis jetzt. Wer wem zahlt, steht erst fest, wenn der Abend beendet ist."
	lines := wrap(fc.note, note, Width-2*margin)
	if len(lines) < 2 || strings.Join(lines, " ") != note {
		t.Fatalf("the note wraps to %q", lines)
	}
	for _, l := range lines {
		if font.MeasureString(fc.note, l).Ceil() > Width-2*margin {
			t.Errorf("line %q is wider than the card", l)
		}
	}
	// Every letter of the names is in the font: none is drawn as the
	// missing-glyph box.
	for _, r := range "äöüåÄÖÜÅßéèñøæ→…−€" {
		if _, ok := fc.text.GlyphAdvance(r); !ok {
			t.Errorf("the font has no %q", r)
		}
	}
}
