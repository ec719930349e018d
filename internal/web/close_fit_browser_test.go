package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The end of an old-tapp evening on the smallest phone (320 px), in the
// language with the longest words there, with three-digit balances in
// kronor: the table of shares, units and money fits the screen (a tester
// found "Pengar" and the "kr" of −269,00 kr cut off at the edge), and the
// evening's tabs keep to one line there and on the common small phones.
func TestBrowserCloseFitsTheSmallestPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	id := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"1","currency":"SEK"}`)
	for _, d := range []string{
		`{"contract":"coeursolo","declarer":"Anna","tout":true,"tricks":11}`,
		`{"contract":"coeursolo","declarer":"Anna","tout":true,"tricks":11}`,
		`{"contract":"coeursolo","declarer":"Cleo","tout":true,"tricks":10}`,
		`{"contract":"coeurfrage","declarer":"Ben","points":50,"tricks":3}`,
	} {
		if r := do(t, h, "POST", "/api/games/"+id+"/hands", d); r.status != 201 {
			t.Fatalf("%s: %d %s", d, r.status, r.body)
		}
	}
	ctx := browser(t, lanNames)
	// The smallest phone, the common small Androids, the small iPhones.
	for _, width := range []int{320, 360, 375} {
		run(t, ctx, fmt.Sprintf("be a phone %d px wide", width), chromedp.EmulateViewport(int64(width), 640, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
		for _, lang := range []string{"sv", "de", "en"} {
			run(t, ctx, "the end in "+lang, chromedp.Navigate(base+"/g/"+id+"/close?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`table.standings`)))
			f := value(t, ctx, "measure", chromedp.Evaluate[fit](fitScript))
			money := text(t, ctx, `[...document.querySelectorAll('td.money')].map(td => td.textContent).join(' | ')`)
			if rows := text(t, ctx, `String(new Set([...document.querySelectorAll('nav.gamenav a')].map(a => a.getBoundingClientRect().top)).size)`); rows != "1" {
				t.Errorf("%d px, %s: the evening's tabs take %s lines", width, lang, rows)
			}
			if f.Width > width {
				shot(t, ctx, fmt.Sprintf("close-%d-%s", width, lang))
				t.Errorf("%s: the end of the evening is %d px wide on a %d px phone (money %s)", lang, f.Width, width, money)
			}
			for _, s := range f.Small {
				t.Errorf("%d px, %s: tap target smaller than 44 × 44: %s", width, lang, s)
			}
		}
	}
}
