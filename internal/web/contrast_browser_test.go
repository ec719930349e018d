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
  // A choice not tapped (a player, a contract) must not look disabled: its
  // edge stands out, its text is full strength.
  document.querySelectorAll('.pick input:not(:checked) + span, a.pick:not(.selected)').forEach(el => {
    const st = getComputedStyle(el), own = rgb(st.backgroundColor);
    const r = ratio(rgb(st.borderTopColor), bg), text = ratio(rgb(st.color), st.backgroundColor.startsWith('rgba(0, 0, 0, 0') ? bg : own);
    if (r < 3 || text < 4.5 || Number(st.opacity) < 1) low.push('choice "' + el.textContent.trim() + '" border ' + r.toFixed(2) + ' text ' + text.toFixed(2) + ' opacity ' + st.opacity);
  });
  document.querySelectorAll('figure.chart path').forEach(el => {
    const r = ratio(rgb(getComputedStyle(el).stroke), bg);
    if (r < 3) low.push(el.getAttribute('class') + ' ' + r.toFixed(2));
  });
  return low;
})()`

// nearColours lists the pairs of a chart's lines whose colours are too
// alike to tell apart (under 50 apart in RGB, the two pinks of players 2
// and 8 were 21), and says so when the chart has not 8 lines.
const nearColours = `(() => {
  const ls = [...document.querySelectorAll('figure.chart path')];
  if (!ls.length) return [];
  if (ls.length !== 8) return ['the chart has ' + ls.length + ' lines'];
  const rgb = l => (getComputedStyle(l).stroke.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
  const near = [];
  ls.forEach((a, i) => ls.slice(i + 1).forEach(b => {
    const [x, y] = [rgb(a), rgb(b)];
    const d = Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
    if (d < 50) near.push(a.getAttribute('class') + ' ~ ' + b.getAttribute('class') + ' ' + d.toFixed(0));
  }));
  return near;
})()`

// Fields, chart lines and choices not yet tapped (#36.6: unselected
// players looked disabled) stand out from the page in light and dark, whether
// the phone or the page's switch chose it, for up to eight players; no two
// players' lines share a colour.
func TestBrowserEdgesStandOutInEitherTheme(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	eight := `["Anna","Ben","Cleo","Dan","Eva","Fred","Gus","Hanna"]`
	gid := createGroup(t, h, `{"name":"Eight","players":`+eight+`,"unit":"1","currency":"EUR"}`)["id"].(string)
	for range 2 {
		id := createGame(t, h, `{"variant":"wuerttemberg","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"suit","declarer":"Anna","trump":"clubs","points":70}`), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), 200)
		id = createGame(t, h, `{"variant":"old-tapp","players":["Eva","Fred","Cleo"],"group":"`+gid+`"}`)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Fred","points":73}`), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["Eva"]}`), 200)
		id = createGame(t, h, `{"variant":"old-tapp","players":["Gus","Hanna","Anna"],"group":"`+gid+`"}`)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"coeurfrage","declarer":"Hanna","points":50}`), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{"remainder_to":["Gus"]}`), 200)
	}
	open := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	ctx := browser(t, lanNames)
	for _, c := range []struct{ phone, page string }{{"light", ""}, {"dark", ""}, {"light", "dark"}, {"dark", "light"}} {
		run(t, ctx, "be a phone in "+c.phone, asPhone(c.phone))
		theme := ""
		if c.page != "" {
			theme = "&theme=" + c.page
		}
		for _, path := range []string{"/groups/" + gid + "/stats?lang=en", "/new/zuger?group=" + gid + "&lang=en", "/new/wuerttemberg?lang=en", "/g/" + open + "/record?contract=solo&lang=en"} {
			name := fmt.Sprintf("%s (phone %s, page %q)", path, c.phone, c.page)
			run(t, ctx, name, chromedp.Navigate(base+path+theme), chromedp.WaitVisible(chromedp.CSS(`main`)))
			if low := value(t, ctx, name+": contrast", chromedp.Evaluate[[]string](contrastScript)); len(low) > 0 {
				shot(t, ctx, "contrast")
				t.Errorf("%s: below 3:1 against the page: %v", name, low)
			}
			if near := value(t, ctx, name+": colours", chromedp.Evaluate[[]string](nearColours)); len(near) > 0 {
				t.Errorf("%s: lines too alike in colour: %v", name, near)
			}
		}
	}
}
