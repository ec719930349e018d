package web

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// brokenWords lists the column headings with a word broken across two
// lines: each word of a heading is measured on its own.
const brokenWords = `(() => {
  const broken = [];
  for (const th of document.querySelectorAll('table.standings thead th')) {
    const text = th.firstChild;
    if (!text || text.nodeType !== 3) continue;
    const re = /\S+/g;
    let m;
    while ((m = re.exec(text.data))) {
      const r = document.createRange();
      r.setStart(text, m.index);
      r.setEnd(text, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
})()`

// The standings' column headings keep their words whole on a phone, a
// long player's name in the table and a column for the pot included. They
// once read "Einh/eite/n" beside a long name, and "Playe/r", "Unit/s" on
// the end-of-evening page of a game with a pot.
func TestBrowserStandingsHeadingsKeepWordsWhole(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	z := createGame(t, h, `{"variant":"zuger","players":["Anna","Bartholomäus von Hohenzollern-Sigmarin","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"solo","declarer":"Dan","points":70,"tricks":5}`)
	o := createGame(t, h, `{"variant":"old-tapp","players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"EUR"}`)
	do(t, h, "POST", "/api/games/"+o+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":45}`)
	for _, path := range []string{"/g/" + z, "/g/" + z + "/close", "/g/" + o, "/g/" + o + "/close"} {
		for _, lang := range []string{"en", "de", "sv"} {
			run(t, ctx, "open "+path, chromedp.Navigate(base+path+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`table.standings`)))
			if broken := value(t, ctx, "measure the headings", chromedp.Evaluate[[]string](brokenWords)); len(broken) > 0 {
				shot(t, ctx, "headings-"+lang)
				t.Errorf("%s in %s: headings with a word broken across lines: %q", path, lang, broken)
			}
		}
	}
}
