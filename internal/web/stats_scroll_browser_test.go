package web

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// statsBox is one statistics table's scrolling box as the phone shows it.
type statsBox struct {
	Scrolls   bool    `json:"scrolls"`   // wider than its box
	NameRight float64 `json:"nameRight"` // the names' column's right edge, from the box's left
	NameWidth float64 `json:"nameWidth"`
	BoxWidth  float64 `json:"boxWidth"`
	NetInView bool    `json:"netInView"` // the balance column, unscrolled
	Broken    string  `json:"broken"`    // headings broken inside a word, or running out of their cell
}

// statsBoxScript measures the statistics tables: whether each scrolls, how
// wide the names' column is, whether the balance is in view, and every
// heading broken inside a word or too wide for its cell.
const statsBoxScript = `[...document.querySelectorAll(".scroll")].map(box => {
  box.scrollLeft = 0;
  const b = box.getBoundingClientRect(), name = box.querySelector("tbody th").getBoundingClientRect();
  const net = box.querySelector("tbody td[data-stat=net]").getBoundingClientRect();
  const broken = [];
  for (const th of box.querySelectorAll("thead th")) {
    if (th.scrollWidth > th.clientWidth + 1) broken.push(th.textContent + " runs out of its cell");
    const text = th.firstChild;
    if (!text || text.nodeType !== Node.TEXT_NODE) continue;
    for (const m of text.data.matchAll(/\S+/g)) {
      const r = document.createRange();
      r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
      const lines = new Set([...r.getClientRects()].map(q => Math.round(q.top)));
      if (lines.size > 1) broken.push(m[0] + " (in " + th.textContent + ") on " + lines.size + " lines");
    }
  }
  return {scrolls: box.scrollWidth > box.clientWidth + 10, nameRight: name.right - b.left, nameWidth: name.width,
    boxWidth: box.clientWidth, netInView: net.left >= name.right - 1 && net.right <= b.left + box.clientWidth + 1, broken: broken.join("; ")};
})`

// shade is how much darker (or, dark mode, lighter) than the page a strip
// of a statistics box looks, at its left just past the names and at its
// right edge, with the table's text made transparent: the box's own
// painting and the names' column's background, without the letters.
type shade struct{ left, right int }

func statsShade(t *testing.T, ctx context.Context, i int, scroll string, nameRight float64) shade {
	t.Helper()
	run(t, ctx, "scroll the table", js(fmt.Sprintf(`(() => {
		document.querySelectorAll(".scroll").forEach(b => b.removeAttribute("id"));
		const box = document.querySelectorAll(".scroll")[%d];
		box.id = "probe";
		box.scrollIntoView({block: "center"});
		box.scrollLeft = %s;
	})()`, i, scroll)))
	img, err := png.Decode(bytes.NewReader(value(t, ctx, "screenshot the table", chromedp.Screenshot(chromedp.CSS(`#probe`)))))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	w := value(t, ctx, "box width", chromedp.Evaluate[float64](`document.getElementById("probe").getBoundingClientRect().width`))
	scale := float64(b.Dx()) / w
	// The median over a column of pixels: the rows' lines are one pixel
	// in thirty.
	column := func(x float64) int {
		px := b.Min.X + int(x*scale)
		var ls []int
		for y := b.Min.Y; y < b.Max.Y; y++ {
			r, g, bl, _ := img.At(px, y).RGBA()
			ls = append(ls, int((299*r+587*g+114*bl)/1000)>>8)
		}
		sort.Ints(ls)
		return ls[len(ls)/2]
	}
	page := column(w / 2) // the middle: neither edge's shadow
	abs := func(n int) int {
		if n < 0 {
			return -n
		}
		return n
	}
	return shade{left: abs(column(nameRight+3) - page), right: abs(column(w-3) - page)}
}

// The statistics tables are wider than a phone and scroll sideways inside
// their box: the box shows that they do, with a shadow at the edge where
// there is more to see (at the left, just past the names that stay), and
// none where the table ends. The names stay in view as it scrolls, a long
// name wraps in a column that leaves the balance in view, and headings
// wrap between words, never inside one. Nothing showed that the tables
// scroll (790 px in a 354 px box), and a 40-letter name took the whole
// box.
func TestBrowserStatsShowTheyScroll(t *testing.T) {
	h := newServer(t)
	base, _ := lanServer(t, h)
	groups := map[string]string{}
	for _, who := range []string{"short", "long"} {
		names := []string{"Anna", "Ben", "Cleo", "Dan"}
		if who == "long" {
			names = longNames
		}
		gid := createGroup(t, h, `{"name":"Donnerstag","players":["`+strings.Join(names, `","`)+`"],"unit":"0.50","currency":"EUR"}`)["id"].(string)
		first := mustStatus(t, do(t, h, "POST", "/api/games", zugerEvening(gid, names...)), 201).json(t)["id"].(string)
		mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/hands", tappDeal(names[0], 70)), 201)
		mustStatus(t, do(t, h, "POST", "/api/games/"+first+"/close", `{}`), 200)
		groups[who] = gid
	}
	ctx := browser(t, lanNames)
	for _, scheme := range []string{"light", "dark"} {
		run(t, ctx, "be a phone in "+scheme, asPhone(scheme))
		for _, who := range []string{"short", "long"} {
			for _, lang := range []string{"de", "en", "sv"} {
				what := fmt.Sprintf("%s names, %s, %s", who, lang, scheme)
				run(t, ctx, "open the stats", chromedp.Navigate(base+"/groups/"+groups[who]+"/stats?lang="+lang), chromedp.WaitVisible(chromedp.CSS(`table.stats`)))
				if w := value(t, ctx, "page width", chromedp.Evaluate[int](`document.documentElement.scrollWidth`)); w > phoneWidth {
					t.Errorf("%s: the page is %d px wide on a %d px screen", what, w, phoneWidth)
				}
				boxes := value(t, ctx, "measure the tables", chromedp.Evaluate[[]statsBox](statsBoxScript))
				if len(boxes) != 2 {
					t.Fatalf("%s: %d tables, want 2", what, len(boxes))
				}
				// The names stay at the left as the table scrolls.
				moved := value(t, ctx, "scroll the names", chromedp.Evaluate[float64](`(() => {
					const box = document.querySelector(".scroll"), name = box.querySelector("tbody th");
					box.scrollLeft = 300;
					const off = name.getBoundingClientRect().left - box.getBoundingClientRect().left;
					box.scrollLeft = 0;
					return off;
				})()`))
				if moved < -1 || moved > 1 {
					t.Errorf("%s: scrolled, the names moved %.0f px", what, moved)
				}
				// The letters made transparent: what is left is what the box
				// and the names' column paint.
				run(t, ctx, "hide the letters", js(`(() => { const s = document.createElement("style"); s.textContent = ".scroll table, .scroll table * {color: transparent !important}"; document.head.append(s); })()`))
				for i, b := range boxes {
					if !b.Scrolls {
						t.Errorf("%s, table %d: does not scroll sideways; nothing to show", what, i+1)
						continue
					}
					if b.NameWidth > 0.4*b.BoxWidth || !b.NetInView {
						t.Errorf("%s, table %d: the names take %.0f of %.0f px; the balance in view: %v", what, i+1, b.NameWidth, b.BoxWidth, b.NetInView)
					}
					if b.Broken != "" {
						t.Errorf("%s, table %d: headings broken: %s", what, i+1, b.Broken)
					}
					const seen = 20 // of 255: a shadow, not a line of pixels
					for _, c := range []struct {
						at          string
						scroll      string
						left, right bool
					}{
						{"at its start", "0", false, true},
						{"scrolled half way", "(box.scrollWidth - box.clientWidth) / 2", true, true},
						{"at its end", "box.scrollWidth", true, false},
					} {
						s := statsShade(t, ctx, i, c.scroll, b.NameRight)
						if (s.left >= seen) != c.left || (s.right >= seen) != c.right {
							shot(t, ctx, "stats-shade")
							t.Errorf("%s, table %d %s: the left edge is %d off the page's colour, the right %d; want a shadow at the left %v, at the right %v",
								what, i+1, c.at, s.left, s.right, c.left, c.right)
						}
					}
				}
			}
		}
	}
}
