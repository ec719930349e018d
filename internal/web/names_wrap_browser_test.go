package web

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// brokenNamesScript lists the standings' names that a line break cuts
// inside a word: each word of a name (split at spaces, and after a
// hyphen, where a break is fine) must lie on one line. It also gives the
// page's width.
const brokenNamesScript = `(() => {
  const out = [];
  for (const th of document.querySelectorAll('.standings tbody th')) {
    const text = th.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    const s = text.textContent;
    for (const m of s.matchAll(/[^\s-]+-?/g)) {
      const r = document.createRange();
      r.setStart(text, m.index);
      r.setEnd(text, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].map(b => Math.round(b.top)));
      if (tops.size > 1) out.push(s.trim() + ': "' + m[0] + '" over ' + tops.size + ' lines');
    }
  }
  return {width: document.documentElement.scrollWidth, spills: out};
})()`

// Names of a dozen letters, as friends have them, are not cut in the
// middle on a 390 px phone: the standings give a name room for about a
// dozen letters before the numbers take the rest (it was "Bartholom / ew"
// on the close page and "Cleopat / ra" at 320 px). Table and close page,
// three and four columns, in each language; the page never gets wider
// than the screen.
func TestBrowserNamesKeepWholeOnAPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	o := do(t, h, "POST", "/api/games", `{"variant":"old-tapp","players":["Annabelle-Marie","Bartholomew","Christopher"],"unit":"0.50","currency":"EUR"}`).json(t)["id"].(string)
	for _, d := range []string{`{"contract":"solo","declarer":"Bartholomew","trump":"clubs","points":70}`, `{"contract":"coeurfrage","declarer":"Christopher","points":40}`, `{"contract":"pass"}`} {
		mustStatus(t, do(t, h, "POST", "/api/games/"+o+"/hands", d), 201)
	}
	z := do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Maximiliane","Bartholomew","Christopher","Annabelle-Marie"],"unit":"0.50","currency":"CHF"}`).json(t)["id"].(string)
	mustStatus(t, do(t, h, "POST", "/api/games/"+z+"/hands", `{"contract":"vice","declarer":"Christopher","points":40,"tricks":2}`), 201)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	for _, lang := range []string{"en", "de", "sv"} {
		for _, path := range []string{"/g/" + o, "/g/" + o + "/close", "/g/" + z, "/g/" + z + "/close"} {
			run(t, ctx, "open "+path, chromedp.Navigate(base+path+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`.standings`)))
			s := value(t, ctx, "measure "+path, chromedp.Evaluate[spill](brokenNamesScript))
			if s.Width > phoneWidth || len(s.Spills) > 0 {
				t.Errorf("%s (%s): %d px wide on a %d px screen; names cut: %s", path, lang, s.Width, phoneWidth, strings.Join(s.Spills, "; "))
			}
		}
	}
}
