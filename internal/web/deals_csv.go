package web

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/shopspring/decimal"

	"tappbook/internal/tapp"
)

// csvCell keeps a spreadsheet from running a cell as a formula: text that
// starts with = + - @ (or a tab or return) gets a leading apostrophe.
func csvCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		if _, err := strconv.ParseFloat(strings.Replace(s, ",", ".", 1), 64); err != nil { // -1,50 is a number too
			return "'" + s
		}
	}
	return s
}

// moneyHead names a column of money: the player (or the pot) and the
// currency.
func moneyHead(g *tapp.State, who string) string {
	if g.Currency == "" {
		return who + " (money)"
	}
	return who + " (" + g.Currency + ")"
}

// writeCSVRow writes a row of cells under head: as many as it has
// columns, or nothing (a row one cell short would shift every column after
// it in a spreadsheet).
func writeCSVRow(w *csv.Writer, head, row []string) error {
	if len(row) != len(head) {
		return fmt.Errorf("deals.csv: a row of %d cells under %d columns", len(row), len(head))
	}
	for i := range row {
		row[i] = csvCell(row[i])
	}
	return w.Write(row)
}

// dealsCSV downloads the deals, one row each, with every player's change in
// units and in money, and when each deal was recorded and last changed, in
// the server's local time, whose offsets from UTC the last two columns say
// (a server in UTC would otherwise pass for the table's clock; the clocks
// may go back between a deal and its correction). The columns of
// the first version come first, in their order.
func (u ui) dealsCSV(c echo.Context) error {
	st := csvStyleFor(u.localizer(c).Lang())
	return u.svc.View(c.Request().Context(), gameID(c), func(g *tapp.State) error {
		var out bytes.Buffer
		out.WriteString(st.bom)
		w := csv.NewWriter(&out)
		w.Comma = st.comma
		t := newDealsTable(g, st.decimal)
		if err := w.Write(t.head); err != nil {
			return err
		}
		for i, h := range g.Hands() {
			if err := writeCSVRow(w, t.head, t.handRow(i, h)); err != nil {
				return err
			}
		}
		// The close is the last row: the pot shared out, so that every
		// player's column adds up to the standings.
		if cl := g.Closed; cl != nil {
			en := u.i18n.For("en")
			why := potWent(en, g.Setup.Players, cl.Split, cl.RemainderTo)
			if why == "" {
				why = en.T("close.title")
			}
			if err := writeCSVRow(w, t.head, t.closeRow(cl, why)); err != nil {
				return err
			}
		}
		w.Flush()
		if err := w.Error(); err != nil {
			return err
		}
		c.Response().Header().Set(echo.HeaderContentDisposition, `attachment; filename="tappbook-`+fileName(c)+`.csv"`)
		return c.Blob(http.StatusOK, "text/csv; charset=utf-8", out.Bytes())
	})
}

// dealsTable is deals.csv's columns for one game, and its rows.
type dealsTable struct {
	g      *tapp.State
	dec    func(string) string // a number in the reader's spreadsheet
	ramsch bool                // the variant scores Ramsch
	pots   []decimal.Decimal   // the pot after each deal; nil without a pot
	head   []string
}

func newDealsTable(g *tapp.State, dec func(string) string) dealsTable {
	t := dealsTable{g: g, dec: dec}
	t.head = []string{"hand", "dealer", "contract", "declarer", "partner", "trump", "points", "tricks", "tout", "kontra", "matzl", "voided", "void_reason", "explanation"}
	for _, name := range g.Setup.Players {
		t.head = append(t.head, csvCell(name))
	}
	t.head = append(t.head, "pot", "recorded_at", "changed_at")
	for _, name := range g.Setup.Players {
		t.head = append(t.head, csvCell(moneyHead(g, name)))
	}
	t.head = append(t.head, moneyHead(g, "pot"), "corrected_because")
	// Ramsch is scored from each player's points and tricks: kept, so
	// that the CSV alone is enough to check a Ramsch deal.
	t.ramsch = slices.Contains(g.Variant().Contracts, "ramsch")
	if t.ramsch {
		for _, name := range g.Setup.Players {
			t.head = append(t.head, csvCell(name+" ramsch points"), csvCell(name+" ramsch tricks"))
		}
	}
	// The pot after each deal, as the deals stand now, where there is
	// one: "pot" is what the deal moved.
	if g.Variant().HasPot {
		t.head = append(t.head, "pot_after")
		t.pots = g.PotsAfter()
	}
	t.head = append(t.head, "recorded_utc_offset", "changed_utc_offset")
	return t
}

// utcOffset is a time's offset in the server's zone, as "UTC+01:00": a
// leading sign would read as a formula.
func utcOffset(t time.Time) string { return "UTC" + t.In(time.Local).Format("-07:00") }

// optInt is a count that may be left out, "" when it is.
func optInt(p *int) string {
	if p == nil {
		return ""
	}
	return strconv.Itoa(*p)
}

// handRow is deal h's row, the i-th of the game.
func (t dealsTable) handRow(i int, h *tapp.Hand) []string {
	g, dec := t.g, t.dec
	r, res := h.Record(), h.Result()
	tout := ""
	if r.Tout != nil {
		tout = strconv.FormatBool(*r.Tout)
	}
	row := []string{strconv.Itoa(h.Number), g.Setup.Players[h.Dealer], r.Contract, r.Declarer, r.Partner, r.Trump,
		optInt(r.Points), optInt(r.Tricks), tout, optInt(r.Kontra), r.Matzl, strconv.FormatBool(h.Voided), h.VoidReason, res.Text()}
	// A voided deal moves nothing: its columns say 0, so that each
	// column adds up to the standings; its explanation still says
	// what it was.
	deltas, pot := h.Moves()
	for _, d := range deltas {
		row = append(row, dec(d.String()))
	}
	first, last := h.Revisions[0].At, h.Revisions[len(h.Revisions)-1].At
	row = append(row, dec(pot.String()), whenOf(first, "second").Text, whenOf(last, "second").Text)
	for _, d := range deltas {
		row = append(row, dec(g.MoneyText(d)))
	}
	row = append(row, dec(g.MoneyText(pot)))
	var because []string
	for _, rev := range h.Revisions {
		if rev.Kind == tapp.TypeHandCorrect && rev.Reason != "" {
			because = append(because, rev.Reason)
		}
	}
	row = append(row, strings.Join(because, "; "))
	if t.ramsch {
		for _, name := range g.Setup.Players {
			sc, ok := r.Ramsch[name]
			if !ok {
				row = append(row, "", "")
				continue
			}
			row = append(row, optInt(sc.Points), optInt(sc.Tricks))
		}
	}
	if t.pots != nil {
		row = append(row, dec(t.pots[i].String()))
	}
	return append(row, utcOffset(first), utcOffset(last))
}

// closeRow is the close's row: each player's share of the pot, and why
// it went as it did.
func (t dealsTable) closeRow(cl *tapp.Closing, why string) []string {
	g, dec := t.g, t.dec
	row := []string{"close", "", "", "", "", "", "", "", "", "", "", "false", "", why}
	pot := decimal.Zero
	for _, d := range cl.Split {
		row = append(row, dec(d.String()))
		pot = pot.Sub(d)
	}
	row = append(row, dec(pot.String()), whenOf(cl.At, "second").Text, whenOf(cl.At, "second").Text)
	for _, d := range cl.Split {
		row = append(row, dec(g.MoneyText(d)))
	}
	row = append(row, dec(g.MoneyText(pot)), "")
	if t.ramsch {
		row = append(row, make([]string, 2*len(g.Setup.Players))...)
	}
	if t.pots != nil {
		row = append(row, "0") // shared out
	}
	return append(row, utcOffset(cl.At), utcOffset(cl.At))
}

// csvStyle is how a spreadsheet in the reader's language opens a CSV by a
// double click: German and Swedish Excel read "1.50" as text or a date and
// split on ";" (their decimal mark is the comma), and take the file for
// UTF-8 only with a byte-order mark. English keeps the plain CSV it always
// had, which scripts read.
type csvStyle struct {
	bom     string
	comma   rune
	decimal func(string) string
}

func csvStyleFor(lang string) csvStyle {
	switch lang {
	case "de", "sv":
		return csvStyle{bom: "\uFEFF", comma: ';', decimal: func(s string) string { return strings.Replace(s, ".", ",", 1) }}
	}
	return csvStyle{comma: ',', decimal: func(s string) string { return s }}
}
