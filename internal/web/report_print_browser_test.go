package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// A4 with the report's @page margins (static/report.css): 12 mm all round.
const (
	a4MarginInches = 12 / 25.4
	// The printable area in CSS pixels (96 a inch): 186 × 273 mm.
	a4PrintWidth  = 703
	a4PrintHeight = 1031
)

// pdfPages counts the pages of a PDF as Chromium writes it: one
// "/Type /Page" dictionary each (the page tree's is "/Type /Pages").
func pdfPages(pdf []byte) int {
	return len(regexp.MustCompile(`/Type\s*/Page\b[^s]`).FindAll(pdf, -1))
}

// printFitScript measures the report at print media in a viewport of the
// printable area: the page's size, and every element of the report that
// reaches past it or whose own text is cut off inside it.
const printFitScript = `(() => {
  const out = [];
  const W = innerWidth, H = innerHeight;
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const what = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.replace(/ /g, '.') : '') + ' "' + (el.textContent || '').trim().slice(0, 40) + '"';
    if (r.right > W + 0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.top < -0.5) out.push('outside the page: ' + what + ' ' + JSON.stringify([r.left, r.top, r.right, r.bottom].map(Math.round)));
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') out.push('cut off: ' + what);
  }
  return {width: document.documentElement.scrollWidth, height: document.documentElement.scrollHeight, problems: out};
})()`

type printFit struct {
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Problems []string `json:"problems"`
}

// An evening of 40 deals, closed, with every payee's IBAN given: its
// report prints on exactly one A4 page, and at print media nothing of it
// lies outside the printable area or is cut off, in each language. The
// standings, the QR code of every transfer and the receipt are on it.
func TestBrowserReportPrintsOnOneA4Page(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	evenings := map[string]string{
		"zuger":    eveningOf40(t, h, "zuger", []string{"Anna-Katharina Müller", "Björn Åström", "Cleo", "Dan"}, "EUR"),
		"old-tapp": eveningOf40(t, h, "old-tapp", []string{"Jürgen", "Märta Öberg", "Zoë"}, "EUR"),
	}
	ctx := browser(t, lanNames)
	dir := shotsDir(t)
	for variant, id := range evenings {
		for _, lang := range []string{"de", "en", "sv"} {
			url := base + "/g/" + id + "/report?lang=" + lang
			run(t, ctx, "open the report of "+variant+" in "+lang, chromedp.EmulateViewport(a4PrintWidth, a4PrintHeight), printMedia("print"),
				chromedp.Navigate(url), loaded(`[...document.images].every(i => i.complete && i.naturalWidth > 0) && !!document.querySelector('.report-receipt svg')`))
			qrs := text(t, ctx, `String(document.querySelectorAll('.report-transfer img').length) + '/' + document.querySelectorAll('.report-transfer').length`)
			if qrs[0] == '0' || qrs[:len(qrs)/2] != qrs[len(qrs)/2+1:] {
				t.Errorf("%s, %s: transfers with a QR code %s", variant, lang, qrs)
			}
			if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err == nil {
				_ = os.WriteFile(filepath.Join(dir, "report-"+variant+"-"+lang+".png"), png, 0o644)
			}
			f := value(t, ctx, "measure at print", chromedp.Evaluate[printFit](printFitScript))
			if f.Width > a4PrintWidth || f.Height > a4PrintHeight || len(f.Problems) > 0 {
				shot(t, ctx, "report-"+variant+"-"+lang)
				t.Errorf("%s, %s: the printed report is %d × %d px (room: %d × %d): %v", variant, lang, f.Width, f.Height, a4PrintWidth, a4PrintHeight, f.Problems)
			}
			pdf := value(t, ctx, "print to PDF", chromedp.PrintToPDF(chromedp.PDFPaper(chromedp.PaperA4), chromedp.PDFMargin(a4MarginInches), chromedp.PDFPreferCSSPageSize()))
			// Kept for a person to look at, as the page tests' screenshots.
			if err := os.WriteFile(filepath.Join(dir, "report-"+variant+"-"+lang+".pdf"), pdf, 0o644); err != nil {
				t.Fatal(err)
			}
			if n := pdfPages(pdf); n != 1 {
				t.Errorf("%s, %s: the report prints on %d pages, want 1", variant, lang, n)
			}
		}
	}
}

// On the phone, the same report fits the screen's width in every language
// and both colour schemes, its Print button shown by the script, and the
// share image offered as a download (headless Chromium shares no files).
func TestBrowserReportFitsAPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	id := eveningOf40(t, h, "zuger", []string{"Anna-Katharina Müller", "Björn Åström", "Cleo", "Dan"}, "EUR")
	ctx := browser(t, lanNames)
	for _, scheme := range []string{"light", "dark"} {
		run(t, ctx, "be a phone in "+scheme, asPhone(scheme))
		for _, lang := range []string{"de", "en", "sv"} {
			run(t, ctx, "open the report in "+lang, chromedp.Navigate(base+"/g/"+id+"/report?lang="+lang),
				loaded(`!document.querySelector('button[data-print]').hidden`))
			f := value(t, ctx, "measure", chromedp.Evaluate[fit](fitScript))
			if f.Width > phoneWidth {
				shot(t, ctx, "report-phone-"+lang+"-"+scheme)
				t.Errorf("%s, %s: the report is %d px wide on a %d px phone", lang, scheme, f.Width, phoneWidth)
			}
			if n := text(t, ctx, `String(document.querySelectorAll('a#report-image[download][href$="/report.png"]').length)`); n != "1" {
				t.Errorf("%s: the share image is not offered as a download", lang)
			}
		}
	}
}

// printMedia makes the tab render as for print ("print") or the screen ("").
func printMedia(media string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media})
		return err
	})
}

// eveningOf40 records 40 deals through the API, every player giving an
// IBAN, and closes the evening.
func eveningOf40(t *testing.T, h http.Handler, variant string, players []string, currency string) string {
	t.Helper()
	names := ""
	for i, p := range players {
		if i > 0 {
			names += ","
		}
		names += strconv.Quote(p)
	}
	id := createGame(t, h, fmt.Sprintf(`{"variant":%q,"players":[%s],"unit":"0.50","currency":%q}`, variant, names, currency))
	for _, p := range players {
		mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/"+url.PathEscape(p)+"/pay", fmt.Sprintf(`{"name":%q,"iban":"DE89370400440532013000"}`, p)), http.StatusOK)
	}
	for i := range 40 {
		who := players[(i*7/3)%len(players)]
		var d string
		switch {
		case variant == "old-tapp" && i%3 == 0:
			d = fmt.Sprintf(`{"contract":"coeursolo","declarer":%q,"tout":true,"tricks":%d}`, who, 10+i%2)
		case variant == "old-tapp":
			d = fmt.Sprintf(`{"contract":"coeurfrage","declarer":%q,"points":%d,"tricks":3}`, who, 40+i%30)
		case i%5 == 0:
			d = fmt.Sprintf(`{"contract":"solo","declarer":%q,"points":%d,"tricks":5}`, who, 50+i%40)
		default:
			d = tappDeal(who, 40+(i*13)%60)
		}
		if r := do(t, h, "POST", "/api/games/"+id+"/hands", d); r.status != http.StatusCreated {
			t.Fatalf("deal %d %s: %d %s", i+1, d, r.status, r.body)
		}
	}
	closeAndCheck(t, h, id, `{}`)
	return id
}
