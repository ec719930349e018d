package web

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"tappbook/internal/i18n"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// Rows kept are the rows rendered afresh: for every golden evening (voids,
// corrections, a pot; a Württemberg evening's end: TestHerzAsEndOfEvening), in every
// language, with its last deals and with all of them, on the writing page
// and on the read-only one, the page whose rows are rendered and kept and
// the page after it, whose rows come from what was kept, are the page
// rendered keeping none, byte for byte.
func TestKeptRowsAreTheRowsRenderedAfresh(t *testing.T) {
	bundle := loadBundle(t)
	afresh, kept := ui{explained: newExplained()}, ui{explained: newExplained(), rows: newRows(rowsBytes)}
	render := func(u ui, loc i18n.Localizer, g *tapp.State, readOnly bool, ask tableAsk) []byte {
		base := "/g/" + g.ID
		if readOnly {
			base = "/r/" + g.ReadID
		}
		p := templates.Page{L: loc, Path: base, Base: base, ReadOnly: readOnly, Langs: i18n.Languages(), Forms: fixedForms{}}
		var page bytes.Buffer
		if err := templates.Table(u.tableView(p, loc, g, ask)).Render(context.Background(), &page); err != nil {
			t.Fatal(err)
		}
		return page.Bytes()
	}
	for name, g := range goldenEvenings(t) {
		for _, lang := range i18n.Languages() {
			loc := bundle.For(lang)
			for _, readOnly := range []bool{false, true} {
				for _, ask := range []tableAsk{{saved: len(g.Hands()) - 1}, {all: true}} {
					want := render(afresh, loc, g, readOnly, ask)
					for round := range 2 {
						if got := render(kept, loc, g, readOnly, ask); !bytes.Equal(got, want) {
							i := 0
							for i < len(got) && i < len(want) && got[i] == want[i] {
								i++
							}
							t.Fatalf("%s %s read-only %v %+v, round %d: differs at byte %d: got …%s…", name, lang, readOnly, ask, round, i, got[max(0, i-150):min(len(got), i+150)])
						}
					}
				}
			}
		}
	}
}

// A deal changed after its row was kept shows as changed at once: given a
// table page shown (its rows kept), when deal 1 is corrected, then voided,
// then the evening closed, each next page says so — and in the language
// asked for.
func TestAKeptRowShowsItsDealsChange(t *testing.T) {
	h := newServer(t)
	id := startForm(t, h, "zuger", players("Anna", "Ben", "Cleo", "Dan"))
	for range 3 {
		if r := form(t, h, "/g/"+id+"/record", url.Values{"contract": {"solo"}, "declarer": {"Ben"}, "points": {"70"}, "tricks": {"5"}}); r.status != http.StatusSeeOther {
			t.Fatalf("record: %d %s", r.status, r.body)
		}
	}
	row := func(lang string) string {
		body := page(t, h, "/g/"+id, lang).body
		from := strings.Index(body, `<li id="hand-1"`)
		if from < 0 {
			t.Fatalf("no row of deal 1: %s", body)
		}
		return body[from : from+strings.Index(body[from:], "</ol>")] // deal 1 is the last row
	}
	before := row("en")
	if !strings.Contains(before, "/g/"+id+"/hands/1") || strings.Contains(before, "corrected") {
		t.Fatalf("deal 1 as recorded: %s", before)
	}
	if r := form(t, h, "/g/"+id+"/hands/1", url.Values{"contract": {"solo"}, "declarer": {"Anna"}, "points": {"80"}, "tricks": {"6"}, "reason": {"miscounted"}}); r.status != http.StatusSeeOther {
		t.Fatalf("correct: %d %s", r.status, r.body)
	}
	if after := row("en"); !strings.Contains(after, "corrected") || !strings.Contains(after, "Anna") || after == before {
		t.Fatalf("deal 1 corrected, its row: %s", after)
	}
	if de := row("de"); !strings.Contains(de, "berichtigt") {
		t.Fatalf("deal 1 corrected, its row in German: %s", de)
	}
	if r := form(t, h, "/g/"+id+"/hands/1/void", url.Values{"reason": {"misdeal"}}); r.status != http.StatusSeeOther {
		t.Fatalf("void: %d %s", r.status, r.body)
	}
	voided := row("en")
	if !strings.Contains(voided, "voided") || !strings.Contains(voided, "Misdeal") || !strings.Contains(voided, "/g/"+id+"/hands/1") {
		t.Fatalf("deal 1 voided, its row: %s", voided)
	}
	if r := form(t, h, "/g/"+id+"/close", url.Values{}); r.status != http.StatusSeeOther {
		t.Fatalf("close: %d %s", r.status, r.body)
	}
	if closed := row("en"); strings.Contains(closed, "/hands/1") {
		t.Fatalf("the evening closed, deal 1's row still offers to edit it: %s", closed)
	}
}

// The rows kept are bounded in bytes, not in rows: given rows far bigger
// than a deal's usual (a long history of corrections), when more of them
// are kept than the budget holds, then the two generations together hold
// at most twice the budget, the newest row is still kept, and a row bigger
// than the whole budget is not kept at all.
func TestRowsKeptAreBoundedInBytes(t *testing.T) {
	const budget = 10_000
	r := newRows(budget)
	big := strings.Repeat("x", 3_000)
	var last rowKey
	for n := 1; n <= 50; n++ {
		last = rowKey{game: "g", number: n, lang: "en", base: "/g/g"}
		r.keep(last, big)
	}
	held := 0
	for _, m := range []map[rowKey]string{r.now, r.old} {
		for k, html := range m {
			held += k.size() + len(html)
		}
	}
	if held > 2*budget {
		t.Fatalf("50 rows of 3,000 bytes kept under a budget of %d: %d bytes held", budget, held)
	}
	if _, ok := r.get(last); !ok {
		t.Fatal("the row kept last is gone")
	}
	huge := rowKey{game: "g", number: 99, lang: "en"}
	r.keep(huge, strings.Repeat("x", budget))
	if _, ok := r.get(huge); ok {
		t.Fatal("a row bigger than the budget was kept")
	}
}
