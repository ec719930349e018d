package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// contrastScript gives every edge or line on the page that must stand out
// from the page's background (WCAG 1.4.11: 3:1) and does not: a text
// field's or a select's border, a chart's line.
const contrastScript = `(() => {
  const rgb = s => (s.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const bg = rgb(getComputedStyle(document.body).backgroundColor);
  const low = [];
  document.querySelectorAll('input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select').forEach(el => {
    const r = ratio(rgb(getComputedStyle(el).borderTopColor), bg);
    if (r < 3) low.push((el.name || el.tagName) + ' border ' + r.toFixed(2));
  });
  document.querySelectorAll('figure.chart polyline').forEach(el => {
    const r = ratio(rgb(getComputedStyle(el).stroke), bg);
    if (r < 3) low.push(el.getAttribute('class') + ' ' + r.toFixed(2));
  });
  return low;
})()`

// Fields and chart lines stand out from the page in light and dark, whether
// the phone or the page's switch chose it, for up to eight players.
func TestBrowserEdgesStandOutInEitherTheme(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	six := `["Anna","Ben","Cleo","Dan","Eva","Fred"]`
	gid := createGroup(t, h, `{"name":"Six","players":`+six+`,"unit":"1","currency":"EUR"}`)["id"].(string)
	for range 2 {
		id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"suit","declarer":"Anna","trump":"clubs","points":70}`), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), 200)
		id = createGame(t, h, `{"variant":"old-tapp","players":["Eva","Fred","Cleo"],"group":"`+gid+`"}`)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Fred","points":73}`), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["Eva"]}`), 200)
	}
	ctx := browser(t, lanNames)
	for _, c := range []struct{ phone, page string }{{"light", ""}, {"dark", ""}, {"light", "dark"}, {"dark", "light"}} {
		run(t, ctx, "be a phone in "+c.phone, asPhone(c.phone))
		theme := ""
		if c.page != "" {
			theme = "&theme=" + c.page
		}
		for _, path := range []string{"/groups/" + gid + "/stats?lang=en", "/new/zuger?group=" + gid + "&lang=en", "/new/wuerttemberg?lang=en"} {
			name := fmt.Sprintf("%s (phone %s, page %q)", path, c.phone, c.page)
			run(t, ctx, name, chromedp.Navigate(base+path+theme), chromedp.WaitVisible(chromedp.CSS(`main`)))
			if low := value(t, ctx, name+": contrast", chromedp.Evaluate[[]string](contrastScript)); len(low) > 0 {
				shot(t, ctx, "contrast")
				t.Errorf("%s: below 3:1 against the page: %v", name, low)
			}
		}
	}
}
