package web

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"tappbook/internal/i18n"
	"tappbook/internal/payout"
	"tappbook/internal/tapp"
	"tappbook/templates"
)

// -update writes the golden table pages afresh: only from a main whose
// pages are known right, since the test then compares against them.
var updateGolden = flag.Bool("update", false, "write testdata/table-*.golden afresh")

// goldenEvening folds the commands into a game as the service would, each
// event a minute after the one before, from a fixed evening.
func goldenEvening(t *testing.T, id string, cmds ...tapp.Command) *tapp.State {
	t.Helper()
	at := time.Date(2026, 3, 14, 19, 0, 0, 0, time.UTC)
	s := tapp.New(id)
	for _, c := range cmds {
		ps, err := tapp.Decide(s, c)
		if err != nil {
			t.Fatalf("%T: %v", c, err)
		}
		s = evolved(t, s, ps, func() time.Time { at = at.Add(time.Minute); return at })
	}
	return s
}

// goldenEvenings are long evenings with what the deal list says of deals
// besides their result: a Zuger evening with a void, an undo, a
// correction and a void brought back among its last deals; an old-tapp
// evening with a pot whose early correction re-scores the deals shown;
// and a closed old-tapp evening, whose chart ends with the pot shared out.
func goldenEvenings(t *testing.T) map[string]*tapp.State {
	pts := func(n int) *int { return &n }
	four := []string{"Anna", "Ben", "Cleo", "Dan"}
	zuger := []tapp.Command{tapp.Start{ID: "zuger", ReadID: "zuger-r", Variant: "zuger", Players: four, Unit: "0.50", Currency: "CHF"}}
	for i := range 700 {
		r := payout.Record{Contract: "solo", Declarer: four[i%4], Points: pts(40 + i%60), Tricks: pts(2 + i%5)}
		if i%5 == 3 {
			tapps := [][2]int{{25, 0}, {60, 4}, {14, 1}}[i%3]
			r = payout.Record{Contract: "tapp", Declarer: four[(i+1)%4], Points: pts(tapps[0]), Tricks: pts(tapps[1])}
		}
		zuger = append(zuger, tapp.RecordHand{Record: r})
	}
	zuger = append(zuger,
		tapp.VoidHand{Hand: 690, Reason: "misdeal"},
		tapp.CorrectHand{Hand: 695, Record: payout.Record{Contract: "solo", Declarer: "Cleo", Points: pts(73), Tricks: pts(5)}, Reason: "miscounted"},
		tapp.VoidHand{Hand: 700, Reason: undoReason},
		tapp.VoidHand{Hand: 685, Reason: "wrong table"},
		tapp.CorrectHand{Hand: 685, Record: payout.Record{Contract: "solo", Declarer: "Anna", Points: pts(40 + 684%60), Tricks: pts(2 + 684%5)}},
		tapp.RecordHand{Record: payout.Record{Contract: "solo", Declarer: "Dan", Points: pts(102), Tricks: pts(7)}},
	)
	three := []string{"Anna", "Ben", "Cleo"}
	oldTapp := func(id string, deals int) []tapp.Command {
		cmds := []tapp.Command{tapp.Start{ID: id, ReadID: id + "-r", Variant: "old-tapp", Players: three}}
		for n := 1; n <= deals; n++ {
			who := three[n%3]
			r := payout.Record{Contract: "coeurfrage", Declarer: who, Points: pts(40 + (n*7)%50)}
			switch {
			case n%50 == 25 || n == 695:
				r = payout.Record{Contract: "coeursolo", Declarer: who, Points: pts(40)}
			case n%3 == 0:
				r = payout.Record{Contract: "pass"}
			}
			cmds = append(cmds, tapp.RecordHand{Record: r})
		}
		return cmds
	}
	pot := append(oldTapp("old-tapp", 700),
		tapp.CorrectHand{Hand: 600, Record: payout.Record{Contract: "coeursolo", Declarer: "Anna", Points: pts(40)}, Reason: "it was a solo"},
		tapp.VoidHand{Hand: 688, Reason: "misdeal"},
		tapp.CorrectHand{Hand: 683, Record: payout.Record{Contract: "pass"}, Reason: "nobody played"},
		tapp.CorrectHand{Hand: 692, Record: payout.Record{Contract: "coeurfrage", Declarer: "Cleo", Points: pts(88)}, Reason: "miscounted"},
	)
	closed := append(oldTapp("closed", 200), tapp.VoidHand{Hand: 199, Reason: "misdeal"}, tapp.Close{RemainderTo: []string{"Cleo", "Anna"}})
	return map[string]*tapp.State{
		"zuger":    goldenEvening(t, "zuger", zuger...),
		"old-tapp": goldenEvening(t, "old-tapp", pot...),
		"closed":   goldenEvening(t, "closed", closed...),
	}
}

// fixedForms signs nothing: the golden pages hold no key of a server's.
type fixedForms struct{}

func (fixedForms) For(path string) string { return "token-for-" + path }

// The table page of a long evening — its chart, standings and deal list —
// is the page the golden file holds, byte for byte, in each language: a
// change meant to make the page cheaper to build changes nothing it says.
// Each is written with -update from a main known right.
func TestTablePageOfALongEveningIsAsBefore(t *testing.T) {
	bundle := loadBundle(t)
	u := ui{explained: newExplained()}
	for name, g := range goldenEvenings(t) {
		for _, lang := range []string{"en", "de", "sv"} {
			loc := bundle.For(lang)
			base := "/g/" + g.ID
			p := templates.Page{L: loc, Path: base, Base: base, GameID: g.ID, Langs: i18n.Languages(), Forms: fixedForms{}, Title: loc.T("table.title")}
			v := u.tableView(p, loc, g, tableAsk{saved: len(g.Hands())})
			v.Title = v.VariantName
			for i := range v.Hands {
				for j := range v.Hands[i].History {
					// The clock is the server's time zone's: the golden
					// pages are written in UTC wherever they are compared.
					at := &v.Hands[i].History[j].At
					when, err := time.Parse(time.RFC3339, at.UTC)
					if err != nil {
						t.Fatal(err)
					}
					at.Text = when.Format("15:04")
				}
			}
			var page bytes.Buffer
			if err := templates.Table(v).Render(context.Background(), &page); err != nil {
				t.Fatal(err)
			}
			// The view beside the page: where they differ, it says which
			// field did.
			view, err := json.MarshalIndent(struct {
				Chart   templates.ChartView
				Players []templates.PlayerView
				Hands   []templates.HandView
				Pot     string
				More    int
			}{v.Chart, v.Players, v.Hands, v.Pot, v.MoreDeals}, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("testdata", "table-"+name+"-"+lang+".html.golden"), page.Bytes())
			golden(t, filepath.Join("testdata", "table-"+name+"-"+lang+".view.golden"), view)
		}
	}
}

// golden compares got with the file at path, or writes it under -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write it with -update from a main known right)", err)
	}
	if !bytes.Equal(got, want) {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		from := max(0, i-200)
		t.Errorf("%s differs at byte %d:\n got …%s…\nwant …%s…", path, i, got[from:min(len(got), i+200)], want[from:min(len(want), i+200)])
	}
}
