package web

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/chromedp/chromedp"
)

// longNames are player names as long as a name may be (names.MaxName, 40
// characters), each one word: nowhere to wrap them but inside the word.
var longNames = []string{
	"Wolfeschlegelsteinhausenbergerdorffvoral",
	"Maximilianwolfeschlegelsteinhausenberger",
	"Annaliesewolfeschlegelsteinhausenbergerd",
	"Bartholomäuswolfeschlegelsteinhausenberg",
}

// spillScript measures the page as the phone shows it: the document's
// width, and every box whose content runs out of it sideways or that
// reaches past the screen's edge (a name sticking out of its button or
// card, even where the page itself is kept from scrolling). What is meant
// to scroll sideways (the statistics' .scroll wrapper) is left out, and so
// is what is not shown.
const spillScript = `(() => {
  document.querySelectorAll('details').forEach(d => d.open = true);
  const out = [], vw = document.documentElement.clientWidth;
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().replace(/ +/g, '.') : '');
  for (const el of document.querySelectorAll('body *')) {
    if (!(el instanceof HTMLElement) || el.closest('.scroll, [hidden], .offscreen, svg, template, head')) continue;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility === 'hidden' || cs.position === 'fixed') continue;
    const r = el.getBoundingClientRect();
    if ((r.width === 0 && r.height === 0) || (el.clientWidth <= 1 && cs.overflow === 'hidden')) continue; // not shown, or visually hidden (a caption)
    const text = (el.textContent || el.value || '').trim().slice(0, 40);
    if (r.right > vw + 0.5 || r.left < -0.5) out.push(name(el) + ' "' + text + '" spans ' + Math.round(r.left) + '–' + Math.round(r.right) + ' on a ' + vw + ' px screen');
    else if (cs.display !== 'inline' && cs.display !== 'contents' && el.tagName !== 'INPUT' && el.tagName !== 'SELECT' && el.scrollWidth > el.clientWidth + 1)
      out.push(name(el) + ' "' + text + '" holds ' + el.scrollWidth + ' px in ' + el.clientWidth);
  }
  return {width: document.documentElement.scrollWidth, spills: out};
})()`

type spill struct {
	Width  int      `json:"width"`
	Spills []string `json:"spills"`
}

// longNameEvenings starts, through the API, an evening of every variant
// (Württemberg with three players and with four) and a group, all of
// players with 40-character names, in the states their pages show: deals
// corrected and voided, a cut to choose on closing, a closed evening,
// Herz-As, a group's tab, payments and statistics. It gives the pages to
// look at, by name.
func longNameEvenings(t *testing.T, h http.Handler) [][2]string {
	t.Helper()
	for _, n := range longNames {
		if utf8.RuneCountInString(n) != 40 {
			t.Fatalf("%q is %d characters, not 40", n, utf8.RuneCountInString(n))
		}
	}
	// The bodies are written with short names; each is sent with the
	// long ones in their place.
	long := strings.NewReplacer(`"Anna"`, `"`+longNames[0]+`"`, `"Ben"`, `"`+longNames[1]+`"`, `"Cleo"`, `"`+longNames[2]+`"`, `"Dan"`, `"`+longNames[3]+`"`)
	post := func(path, body string) resp {
		t.Helper()
		r := do(t, h, "POST", path, long.Replace(body))
		if r.status >= 300 {
			t.Fatalf("%s %s: %d %s", path, body, r.status, r.body)
		}
		return r
	}
	game := func(body string) string { return post("/api/games", body).json(t)["id"].(string) }
	four := `"players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"`
	three := `"players":["Anna","Ben","Cleo"],"unit":"0.50","currency":"EUR"`
	var pages [][2]string
	add := func(name, path string) { pages = append(pages, [2]string{name, path}) }
	common := func(variant, id string, hands int) {
		ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
		add(variant+"-table", "/g/"+id)
		add(variant+"-saved", fmt.Sprintf("/g/%s?saved=%d", id, hands))
		add(variant+"-record", "/g/"+id+"/record")
		for _, c := range contractsOf(strings.TrimSuffix(variant, "3")) {
			add(variant+"-record-"+c, "/g/"+id+"/record?contract="+c)
		}
		add(variant+"-correct", "/g/"+id+"/hands/1")
		add(variant+"-close", "/g/"+id+"/close")
		add(variant+"-audit", "/g/"+id+"/audit")
		add(variant+"-share", "/g/"+id+"/share")
		add(variant+"-read-only", "/r/"+ro)
	}

	z := game(`{"variant":"zuger",` + four + `}`)
	for _, d := range []string{`{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`, `{"contract":"vice","declarer":"Dan","points":100,"tricks":7}`, `{"contract":"tapp","declarer":"Anna","points":40,"tricks":2}`} {
		post("/api/games/"+z+"/hands", d)
	}
	do(t, h, "PUT", "/api/games/"+z+"/hands/1", long.Replace(`{"contract":"solo","declarer":"Ben","points":60,"tricks":4}`))
	post("/api/games/"+z+"/hands/2/void", `{"reason":"misdeal"}`)
	common("zuger", z, 3)

	o := game(`{"variant":"old-tapp",` + three + `,"rules":{"stake":"3"}}`)
	for _, d := range []string{`{"contract":"coeurfrage","declarer":"Ben","points":40}`, `{"contract":"pass"}`, `{"contract":"solo","declarer":"Cleo","trump":"clubs","points":45}`, `{"contract":"coeurfrage","declarer":"Anna","points":33}`} {
		post("/api/games/"+o+"/hands", d)
	}
	common("old-tapp", o, 4)
	oc := game(`{"variant":"old-tapp",` + three + `}`)
	post("/api/games/"+oc+"/hands", `{"contract":"coeurfrage","declarer":"Ben","points":40}`)
	post("/api/games/"+oc+"/close", `{"remainder_to":["Anna"]}`)
	add("old-tapp-closed-table", "/g/"+oc)
	add("old-tapp-closed-close", "/g/"+oc+"/close")

	m := game(`{"variant":"matzlfangen",` + four + `}`)
	for _, d := range []string{`{"contract":"rufen","partner":"Dan","points":70,"tricks":5,"kontra":5,"matzl":"declarer"}`, `{"contract":"durch","declarer":"Cleo","tricks":8}`} {
		post("/api/games/"+m+"/hands", d)
	}
	common("matzlfangen", m, 2)

	suit := `{"contract":"suit","declarer":"Ben","trump":"clubs","points":70}`
	ramsch := `{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":3},"Ben":{"points":40,"tricks":3},"Cleo":{"points":30,"tricks":2},"Dan":{"points":0,"tricks":0}}}`
	w := game(`{"variant":"wuerttemberg",` + four + `,"rules":{"suit_tapp":true}}`)
	for _, d := range []string{suit, `{"contract":"bettel","declarer":"Anna","tricks":0}`, ramsch} {
		post("/api/games/"+w+"/hands", d)
	}
	common("wuerttemberg", w, 3)
	add("wuerttemberg-herz-as", "/g/"+w+"/herz-as")
	wq := game(`{"variant":"wuerttemberg",` + four + `}`)
	post("/api/games/"+wq+"/hands", suit)
	post("/api/games/"+wq+"/herz-as", `{}`)
	post("/api/games/"+wq+"/hands", suit)
	add("wuerttemberg-holder", "/g/"+wq+"?saved=2")
	add("wuerttemberg-herz-as-withdraw", "/g/"+wq+"/herz-as/withdraw")
	post("/api/games/"+wq+"/herz-as/holder", `{"player":"Ben"}`)
	add("wuerttemberg-forced-record", "/g/"+wq+"/record")

	w3 := game(`{"variant":"wuerttemberg",` + three + `}`)
	for _, d := range []string{suit, `{"contract":"durch","declarer":"Cleo","trump":"hearts","tricks":11}`,
		`{"contract":"ramsch","ramsch":{"Anna":{"points":50,"tricks":5},"Ben":{"points":40,"tricks":4},"Cleo":{"points":30,"tricks":2}}}`} {
		post("/api/games/"+w3+"/hands", d)
	}
	common("wuerttemberg3", w3, 3)

	g := post("/api/groups", `{"name":"Donnerstagsrunde","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`).json(t)
	gid, rid := g["id"].(string), g["read_id"].(string)
	first := game(`{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"` + gid + `"}`)
	post("/api/games/"+first+"/hands", `{"contract":"tapp","declarer":"Anna","points":70,"tricks":5}`)
	post("/api/games/"+first+"/close", `{}`)
	second := post("/api/games/"+first+"/again", "").json(t)["id"].(string)
	post("/api/games/"+second+"/hands", `{"contract":"tapp","declarer":"Cleo","points":80,"tricks":5}`)
	post("/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"0.5","note":"cash"}`)
	add("group", "/groups/"+gid)
	add("group-new-evening", "/new/zuger?group="+gid)
	add("group-tab", "/groups/"+gid+"/tab")
	add("group-tab-cash", "/groups/"+gid+"/tab?cash=1")
	add("group-stats", "/groups/"+gid+"/stats")
	add("group-read-only", "/r/"+rid)
	add("group-read-only-tab", "/r/"+rid+"/tab")
	add("group-read-only-stats", "/r/"+rid+"/stats")
	add("group-evening", "/g/"+second)
	add("group-evening-close", "/g/"+second+"/close")
	// Last: "My evenings" lists what the phone opened before.
	add("home", "/")
	return pages
}

// A player's name may be 40 characters in one word. On a 390 px phone
// every page of every variant, and a group's pages, still fit the screen
// in each language: no page scrolls sideways (the statistics are cards
// that fit a phone), and no name runs out of its button, line
// or card. It was 436 px on the record form, 408 on the table and 477 on
// the close page.
func TestBrowserLongNamesFitAPhone(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	pages := longNameEvenings(t, h)
	ctx := browser(t, lanNames)
	run(t, ctx, "be a phone", asPhone("light"))
	dir := shotsDir(t)
	for _, lang := range []string{"de", "en", "sv"} {
		for _, p := range pages {
			name, path := "long-"+p[0]+"-"+lang, p[1]
			run(t, ctx, "open "+name, chromedp.Navigate(base+path+querySep(path)+"lang="+lang), chromedp.WaitVisible(chromedp.CSS(`main`)))
			s := value(t, ctx, "measure "+name, chromedp.Evaluate[spill](spillScript))
			if s.Width > phoneWidth || len(s.Spills) > 0 {
				t.Errorf("%s (%s): the page is %d px wide on a %d px screen; %d boxes spill: %s", name, path, s.Width, phoneWidth, len(s.Spills), strings.Join(firstFew(s.Spills, 6), "; "))
			}
			if lang == "de" {
				png := value(t, ctx, name+": screenshot", chromedp.FullScreenshot(100))
				if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}

func firstFew(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
