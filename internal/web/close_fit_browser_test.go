package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// The end of an old-tapp evening on the smallest phone (320 px), in the
// language with the longest words there, with three-digit balances in
// kronor: the table of shares, units and money fits the screen (a tester
// found "Pengar" and the "kr" of −269,00 kr cut off at the edge), and the
// evening's tabs keep to one line.
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
	run(t, ctx, "be the smallest phone", chromedp.EmulateViewport(320, 640, chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait))
	for _, lang := range []string{"sv", "de", "en"} {
		run(t, ctx, "the end in "+lang, chromedp.Navigate(base+"/g/"+id+"/close?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`table.standings`)))
		f := value(t, ctx, "measure", chromedp.Evaluate[fit](fitScript))
		money := text(t, ctx, `[...document.querySelectorAll('td.money')].map(td => td.textContent).join(' | ')`)
		if rows := text(t, ctx, `String(new Set([...document.querySelectorAll('nav.gamenav a')].map(a => a.getBoundingClientRect().top)).size)`); rows != "1" {
			t.Errorf("%s: the evening's tabs take %s lines", lang, rows)
		}
		if f.Width > 320 {
			shot(t, ctx, "close-320-"+lang)
			t.Log(text(t, ctx, `[...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > 320).map(e => e.tagName+'.'+e.className+' '+Math.round(e.getBoundingClientRect().left)+'-'+Math.round(e.getBoundingClientRect().right)+' '+e.textContent.slice(0,20)).join('\n')`))
			t.Errorf("%s: the end of the evening is %d px wide on a 320 px phone (money %s)", lang, f.Width, money)
		}
	}
}
