package web

import (
	"bytes"
	"context"
	"fmt"
	"math/big"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/shopspring/decimal"
)

// payRail is how the players of an evening in one currency are paid: the
// details a payee types into the pay page, and how the QR code's text reads
// back as account, amount and message.
type payRail struct {
	currency string
	// details are the pay page's fields for the i-th payee, and the
	// account their QR code must name.
	details func(i int, name string) (fields [][2]string, account string)
	// read takes a decoded QR code's text apart into the fields the payer's
	// app fills in, failing the test on anything the standard does not say.
	read func(t *testing.T, text string) qrFields
}

// qrFields are what a payer's banking app fills in from a QR code.
type qrFields struct {
	account, name, amount, message string
}

var payRails = []payRail{
	{currency: "EUR", // EPC069-12 version 002 ("GiroCode")
		details: func(i int, name string) ([][2]string, string) {
			iban := ibanOf("DE", fmt.Sprintf("37040044053201300%d", i))
			return [][2]string{{"name", name + " Muster"}, {"iban", spaced(iban)}}, iban
		},
		read: func(t *testing.T, text string) qrFields {
			l := strings.Split(text, "\n")
			if len(l) < 7 || len(l) > 12 || l[0] != "BCD" || l[1] != "002" || l[2] != "1" || l[3] != "SCT" || !strings.HasPrefix(l[7], "EUR") {
				t.Fatalf("not an EPC069-12 version 002 SEPA credit transfer in euro: %q", text)
			}
			for len(l) < 12 {
				l = append(l, "")
			}
			return qrFields{account: l[6], name: l[5], amount: strings.TrimPrefix(l[7], "EUR"), message: l[10]}
		}},
	{currency: "CHF", // Swiss QR-bill, SPC 0200
		details: func(i int, name string) ([][2]string, string) {
			iban := ibanOf("CH", fmt.Sprintf("0076201162385295%d", i))
			return [][2]string{{"name", name + " Muster"}, {"iban", spaced(iban)}, {"street", "Bahnhofstrasse " + fmt.Sprint(i+1)},
				{"postcode", "8001"}, {"town", "Zürich"}, {"country", "CH"}}, iban
		},
		read: func(t *testing.T, text string) qrFields {
			l := strings.Split(text, "\n")
			if len(l) != 31 || l[0] != "SPC" || l[1] != "0200" || l[2] != "1" || l[4] != "S" || l[8] != "8001" || l[9] != "Zürich" ||
				l[10] != "CH" || l[19] != "CHF" || l[27] != "NON" || l[30] != "EPD" {
				t.Fatalf("not a QR-bill in CHF to a creditor in 8001 Zürich: %q", text)
			}
			return qrFields{account: l[3], name: l[5], amount: l[18], message: l[29]}
		}},
	{currency: "SEK", // Swish's prefilled payment, "C" format
		details: func(i int, name string) ([][2]string, string) {
			return [][2]string{{"swish", fmt.Sprintf("+46 70 123 45 6%d", i)}}, fmt.Sprintf("070123456%d", i)
		},
		read: func(t *testing.T, text string) qrFields {
			f := strings.Split(strings.TrimPrefix(text, "C"), ";")
			if !strings.HasPrefix(text, "C") || len(f) != 4 || f[3] != "0" {
				t.Fatalf("not a Swish prefilled payment (C payee;amount;message;0): %q", text)
			}
			msg, err := url.QueryUnescape(f[2])
			if err != nil {
				t.Fatalf("Swish message %q: %v", f[2], err)
			}
			return qrFields{account: f[0], amount: strings.Replace(f[1], ",", ".", 1), message: msg}
		}},
}

// ibanOf makes a valid IBAN of a country and a BBAN: the check digits of
// ISO 13616 (mod 97).
func ibanOf(country, bban string) string {
	var digits strings.Builder
	for _, r := range bban + country + "00" {
		if r >= 'A' && r <= 'Z' {
			fmt.Fprint(&digits, int(r-'A')+10)
		} else {
			digits.WriteRune(r)
		}
	}
	n, _ := new(big.Int).SetString(digits.String(), 10)
	return fmt.Sprintf("%s%02d%s", country, 98-new(big.Int).Mod(n, big.NewInt(97)).Int64(), bban)
}

// spaced writes an IBAN in groups of four, as people copy it.
func spaced(iban string) string {
	var out []string
	for len(iban) > 4 {
		out, iban = append(out, iban[:4]), iban[4:]
	}
	return strings.Join(append(out, iban), " ")
}

// The end of the night, issue 35's done-when: on a phone-sized Chromium
// reaching tappbook by a name that is not localhost, an evening in each of
// EUR, CHF and SEK is played through the forms and closed; its payees give
// how they are paid; every QR code the pay page shows is read from the
// screen and its fields checked against the transfer the page states; one
// phone says a transfer is sent, another (the payee's, a browser context
// of its own) that it arrived, and both show it received; the evening is
// reopened with a reason, a deal corrected, and closed again: who pays
// whom and the receipt change, and the report's QR codes read as the pay
// page's. Last, the report prints on one A4 page with nothing cut off
// (TestBrowserReportPrintsOnOneA4Page prints evenings of 40 deals).
func TestBrowserEndOfTheNight(t *testing.T) {
	h := newServer(t)
	base, posts := lanServer(t, h)
	ctx := browser(t, lanNames)
	// The payee's phone: its own browser context (its own cookies and
	// storage) in the same Chromium, in a window of its own.
	payee, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// Its first run makes its tab, which lives as long as the context that
	// run is given: payee itself, not a step's.
	if err := chromedp.Do(payee); err != nil {
		t.Fatalf("the payee's phone: %v", err)
	}
	run(t, payee, "be the payee's phone", asPhone("dark"))
	var last string
	for _, rail := range payRails {
		t.Run(rail.currency, func(t *testing.T) {
			run(t, ctx, "be a phone", asPhone("light"))
			last = endOfTheNight(t, ctx, payee, base, rail)
		})
	}
	if t.Failed() {
		return
	}
	posts.check(t, base, "", 1)
	printsOnOnePage(t, ctx, base, last)
}

// endOfTheNight plays one evening in the rail's currency to its second
// close and returns its id.
func endOfTheNight(t *testing.T, ctx, payee context.Context, base string, rail payRail) string {
	id := startEvening(t, ctx, base, "zuger", []string{"Anna", "Ben", "Cleo", "Dan"},
		js(`document.querySelector("input[name=currency]").value = ""`), chromedp.SendKeys(chromedp.CSS(`input[name=currency]`), rail.currency))
	zd := func(contract, who, pts, tricks string) deal {
		return deal{contract: contract, taps: []string{tap("declarer", who), tap("tricks", tricks)}, typed: [][2]string{{"#points", pts}}}
	}
	for i, d := range []deal{zd("solo", "Ben", "70", "5"), zd("tapp", "Anna", "80", "6"), zd("solo", "Cleo", "40", "3")} {
		recordDeal(t, ctx, i+1, d)
	}
	endEvening(t, ctx)
	before := settledTransfers(t, base, id)
	receipt := apiText(t, base, "/api/games/"+id+"/receipt")
	givePayDetails(t, ctx, base, id, rail, before)
	shown := checkPayQRs(t, ctx, base, "/g/"+id+"/pay", "ul.pay-list", rail, before)

	// The payer's phone says transfer 0 is sent; the payee's that it arrived.
	tr := shown[0]
	run(t, ctx, tr.from+" says it is sent", chromedp.Navigate(base+"/g/"+id+"/pay?lang=en"),
		chromedp.Click(chromedp.CSS(`#transfer-0 button.mark-paid`)), loaded(`location.hash === '#transfer-0'`),
		chromedp.WaitVisible(chromedp.CSS(`#transfer-0 .pay-state[data-state=paid]`)))
	run(t, payee, tr.to+"'s phone opens the pay page", chromedp.Navigate(base+"/g/"+id+"/pay?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`#transfer-0 .pay-state[data-state=paid]`)))
	if value(t, payee, "look for the paid button", chromedp.Evaluate[bool](`!!document.querySelector('#transfer-0 button.mark-paid')`)) {
		t.Error("a transfer marked sent still offers to mark it sent")
	}
	run(t, payee, tr.to+" says it arrived",
		chromedp.Click(chromedp.CSS(`#transfer-0 button.mark-received`)), loaded(`location.hash === '#transfer-0'`),
		chromedp.WaitVisible(chromedp.CSS(`#transfer-0 .pay-state[data-state=confirmed]`)))
	for who, phone := range map[string]context.Context{tr.from: ctx, tr.to: payee} {
		run(t, phone, who+"'s phone shows it received", chromedp.Navigate(base+"/g/"+id+"/pay?lang=en"),
			chromedp.WaitVisible(chromedp.CSS(`#transfer-0 .pay-state[data-state=confirmed]`)))
		// Nothing more to mark: only the payee's taking back of "arrived".
		if got := value(t, phone, "read the buttons", chromedp.Evaluate[[]string](`[...document.querySelectorAll('#transfer-0 button')].map(b => b.className)`)); len(got) != 1 || got[0] != "unmark" {
			t.Errorf("%s's phone offers %q on a transfer received, want the one to take it back", who, got)
		}
	}
	if st := settledTransfers(t, base, id)[0].State; st != "confirmed" {
		t.Errorf("the API says transfer 0 is %q once both phones said so, want confirmed", st)
	}

	reopenAndCorrect(t, ctx, base, id)
	after := settledTransfers(t, base, id)
	if fmt.Sprint(after) == fmt.Sprint(before) {
		t.Errorf("the corrected deal changed nobody's transfers: %v", after)
	}
	if again := apiText(t, base, "/api/games/"+id+"/receipt"); again == receipt {
		t.Error("the evening closed again has the receipt of its first close")
	}
	// The payees' details stand: the new transfers carry QR codes too.
	givePayDetails(t, ctx, base, id, rail, after)
	checkPayQRs(t, ctx, base, "/g/"+id+"/pay", "ul.pay-list", rail, after)
	checkPayQRs(t, ctx, base, "/g/"+id+"/report", "ul.report-transfers", rail, after)
	return id
}

// endEvening ends the evening from its table: any leftover units given,
// one tap on the button that says it settles the money.
func endEvening(t *testing.T, ctx context.Context) {
	t.Helper()
	run(t, ctx, "close",
		chromedp.Click(chromedp.CSS(`nav.gamenav a[href$="/close"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#close-form button.primary`)),
		js(`document.querySelectorAll('fieldset.picks').forEach(f => f.querySelector('input').click())`),
		cutShown(),
		chromedp.Click(chromedp.CSS(`#close-form button.primary`)),
		chromedp.WaitVisible(chromedp.CSS(`p.closed`)))
}

// transfer is one of who pays whom, as the API settles it.
type transfer struct {
	From   string `json:"from"`
	To     string `json:"to"`
	Amount string `json:"amount"`
	State  string `json:"state"`
}

func settledTransfers(t *testing.T, base, id string) []transfer {
	t.Helper()
	var s struct {
		Transfers []transfer `json:"transfers"`
	}
	apiGet(t, base, "/api/games/"+id+"/settlement", &s)
	if len(s.Transfers) == 0 {
		t.Fatal("the evening settles with no transfer: the test needs some")
	}
	return s.Transfers
}

// givePayDetails fills the pay page's form for every payee not yet paid
// by any way.
func givePayDetails(t *testing.T, ctx context.Context, base, id string, rail payRail, ts []transfer) {
	t.Helper()
	run(t, ctx, "open the pay page", chromedp.Navigate(base+"/g/"+id+"/pay?lang=en"), chromedp.WaitVisible(chromedp.ID(`pay-details`)))
	given := map[string]bool{}
	for _, tr := range ts {
		if given[tr.To] {
			continue
		}
		given[tr.To] = true
		if value(t, ctx, "is "+tr.To+" paid by a QR code", chromedp.Evaluate[bool](fmt.Sprintf(
			`[...document.querySelectorAll('li.pay-transfer')].some(li => li.querySelector('strong').textContent.includes(' pays %s ') && li.querySelector('img.pay-qr'))`, tr.To))) {
			continue
		}
		fields, _ := rail.details(seat(tr.To), tr.To)
		// The player is chosen first (a plain GET), then the form holds
		// that player's details.
		run(t, ctx, "choose "+tr.To, chromedp.SetValue(chromedp.CSS(`#pay-details-player select[name=player]`), tr.To),
			js(`window.beforeShow = true`), chromedp.Click(chromedp.CSS(`#pay-details-player button[type=submit]`)),
			loaded(`!window.beforeShow && !!document.getElementById('pay-details')`))
		var acts []chromedp.Action[chromedp.Void]
		for _, f := range fields {
			acts = append(acts, chromedp.SendKeys(chromedp.CSS(`#pay-details input[name=`+f[0]+`]`), f[1]))
		}
		acts = append(acts, js(`window.beforeSave = true`), chromedp.Click(chromedp.CSS(`#pay-details button[type=submit]`)),
			loaded(`!window.beforeSave && !!document.getElementById('pay-details')`))
		run(t, ctx, "give how "+tr.To+" is paid", acts...)
		if msg := value(t, ctx, "read any refusal", chromedp.Evaluate[string](`document.getElementById('pay-error')?.textContent ?? ''`)); msg != "" {
			t.Fatalf("%s's details refused: %s", tr.To, msg)
		}
	}
}

// seat numbers the four players, for details of their own.
func seat(name string) int { return map[string]int{"Anna": 0, "Ben": 1, "Cleo": 2, "Dan": 3}[name] }

// shownTransfer is a transfer as the pay page states it.
type shownTransfer struct {
	from, to string
	amount   decimal.Decimal
}

var paysRe = regexp.MustCompile(`^(\S+) pays (\S+) \D*([0-9]+\.[0-9]{2})\D*$`)

// checkPayQRs reads every QR code of a page's list of transfers (the pay
// page's, the report's) from the screen and checks its fields against the
// transfer the page states, the settlement and the payee's details.
func checkPayQRs(t *testing.T, ctx context.Context, base, path, list string, rail payRail, ts []transfer) []shownTransfer {
	t.Helper()
	run(t, ctx, "open "+path, chromedp.Navigate(base+path+"?lang=en"), chromedp.WaitVisible(chromedp.CSS(list)))
	said := value(t, ctx, "read the transfers", chromedp.Evaluate[[]string](`[...document.querySelectorAll('`+list+` > li strong')].map(s => s.textContent.trim())`))
	if n := value(t, ctx, "count the QR codes", chromedp.Evaluate[int](`document.querySelectorAll('`+list+` > li img').length`)); len(said) != len(ts) || n != len(ts) {
		shot(t, ctx, "transfers")
		t.Fatalf("%s states %d transfers with %d QR codes; the close settles %+v", path, len(said), n, ts)
	}
	id := strings.Split(path, "/")[2]
	message := "tappbook zuger " + evDay(t, base, id)
	var shown []shownTransfer
	for i, s := range said {
		m := paysRe.FindStringSubmatch(s)
		if m == nil {
			t.Fatalf("%s: transfer %d reads %q", path, i, s)
		}
		st := shownTransfer{from: m[1], to: m[2], amount: decimal.RequireFromString(m[3])}
		if want := ts[i]; st.from != want.From || st.to != want.To || !st.amount.Equal(decimal.RequireFromString(want.Amount)) {
			t.Errorf("%s: transfer %d reads %q, the settlement %+v", path, i, s, want)
		}
		png := value(t, ctx, fmt.Sprintf("screenshot QR code %d", i), chromedp.ScreenshotScale(chromedp.CSS(fmt.Sprintf(`%s > li:nth-child(%d) img`, list, i+1)), 2))
		f := rail.read(t, decodeQR(t, png))
		_, account := rail.details(seat(st.to), st.to)
		amount, err := decimal.NewFromString(f.amount)
		if f.account != account || err != nil || !amount.Equal(st.amount) || f.message != message || (f.name != "" && f.name != st.to+" Muster") {
			t.Errorf("%s: the QR code of %q pays %+v; want %s, %s, %q", path, s, f, account, st.amount, message)
		}
		shown = append(shown, st)
	}
	t.Logf("%s: %d QR codes read from the screen: %v", path, len(shown), said)
	return shown
}

// evDay is the day the evening started, as its payments' message says it.
func evDay(t *testing.T, base, id string) string {
	t.Helper()
	var events []struct {
		Type string    `json:"type"`
		At   time.Time `json:"at"`
	}
	apiGet(t, base, "/api/games/"+id+"/events", &events)
	if len(events) == 0 || events[0].Type != "game.started" {
		t.Fatalf("the evening's first event is not its start: %+v", events)
	}
	return events[0].At.Format(time.DateOnly)
}

// apiText reads a text answer of the API.
func apiText(t *testing.T, base, path string) string {
	t.Helper()
	var b bytes.Buffer
	res, err := http.Get(strings.Replace(base, "//tapp.test:", "//127.0.0.1:", 1) + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if _, err := b.ReadFrom(res.Body); err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", path, res.StatusCode, err)
	}
	return b.String()
}

// reopenAndCorrect reopens the closed evening with a reason, corrects deal
// 1 (Ben's solo is lost after all) and closes it again.
func reopenAndCorrect(t *testing.T, ctx context.Context, base, id string) {
	t.Helper()
	run(t, ctx, "reopen", chromedp.Navigate(base+"/g/"+id+"/close?lang=en"),
		chromedp.SendKeys(chromedp.CSS(`#reopen-form input[name=reason]`), "Ben's solo was miscounted"),
		chromedp.Click(chromedp.CSS(`#reopen-form button[type=submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`a.button.primary`)))
	run(t, ctx, "correct deal 1",
		chromedp.Click(chromedp.CSS(`#hand-1 a[href$="/hands/1"]`)),
		chromedp.WaitVisible(chromedp.CSS(`form.deal`)),
		chromedp.Click(chromedp.CSS(tap("tricks", "3"))),
		chromedp.Clear(chromedp.CSS(`#points`)), chromedp.SendKeys(chromedp.CSS(`#points`), "50"),
		chromedp.SendKeys(chromedp.CSS(`form.deal input[name=reason]`), "recounted"),
		chromedp.Click(chromedp.CSS(`form.deal button[type=submit]`)), chromedp.WaitVisible(chromedp.ID(`hand-1`)))
	endEvening(t, ctx)
}

// printsOnOnePage prints the report of a closed evening as the phone's
// print would (Page.printToPDF, A4, the report's own margins): one page;
// and laid out for print, nothing of it outside the paper or cut off
// (TestBrowserReportPrintsOnOneA4Page's measure).
func printsOnOnePage(t *testing.T, ctx context.Context, base, id string) {
	t.Helper()
	path := "/g/" + id + "/report"
	run(t, ctx, "open the report", asPhone("light"), chromedp.Navigate(base+path+"?lang=en"),
		loaded(`[...document.images].every(i => i.complete && i.naturalWidth > 0) && !!document.querySelector('.report-receipt svg')`))
	pdf := value(t, ctx, "print it", chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFMargin(a4MarginInches), chromedp.PDFPreferCSSPageSize()))
	run(t, ctx, "lay it out as printed", chromedp.EmulateViewport(a4PrintWidth, a4PrintHeight), printMedia("print"))
	f := value(t, ctx, "measure at print", chromedp.Evaluate[printFit](printFitScript))
	run(t, ctx, "back to the screen", printMedia(""))
	if n := pdfPages(pdf); n != 1 || f.Width > a4PrintWidth || f.Height > a4PrintHeight || len(f.Problems) > 0 {
		p := filepath.Join(t.TempDir(), "report.pdf")
		_ = os.WriteFile(p, pdf, 0o644)
		t.Fatalf("%s printed on %d A4 pages (%s), want 1; laid out for print %d × %d px (room %d × %d): %v",
			path, n, p, f.Width, f.Height, a4PrintWidth, a4PrintHeight, f.Problems)
	}
	t.Logf("%s: one A4 page (%d bytes of PDF), nothing cut off", path, len(pdf))
}
