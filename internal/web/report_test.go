package web

import (
	"html"
	"image"
	_ "image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// sharePNG fetches a report's share image: a PNG, 1080 wide, portrait.
func sharePNG(t *testing.T, h http.Handler, path string) image.Image {
	t.Helper()
	r := mustStatus(t, do(t, h, "GET", path, ""), http.StatusOK)
	img, format, err := image.Decode(strings.NewReader(r.body))
	if err != nil || format != "png" {
		t.Fatalf("%s: not a PNG (%s): %v", path, format, err)
	}
	if w, ht := img.Bounds().Dx(), img.Bounds().Dy(); w != 1080 || ht <= w {
		t.Fatalf("%s is %d × %d, want 1080 wide and portrait", path, w, ht)
	}
	if dir := os.Getenv("TAPPBOOK_SHOTS"); dir != "" {
		_ = os.WriteFile(filepath.Join(dir, strings.NewReplacer("/", "-").Replace(strings.TrimPrefix(path, "/"))), []byte(r.body), 0o644)
	}
	return img
}

// imgSources are the addresses of a page's images.
func imgSources(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<img [^>]*src="([^"]+)"`).FindAllStringSubmatch(body, -1) {
		out = append(out, html.UnescapeString(m[1]))
	}
	return out
}

// Given an evening in EUR where Ben gave his IBAN, when its report is
// opened: while open it says it is not settled and carries no receipt;
// once closed, each transfer shows the QR code Ben's bank reads (decoded
// from the image the page links), the receipt as a QR code, and the
// close page links the report. Through the read-only link the report
// shows who pays whom but no way to pay.
func TestEveningReport(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Jürgen","Ben","Åsa","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Ben/pay", `{"name":"Ben Muster","iban":"DE89370400440532013000"}`), http.StatusOK)
	playDeals(t, h, id, `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`, tappDeal("Jürgen", 70))

	open := mustStatus(t, do(t, h, "GET", "/g/"+id+"/report?lang=en", ""), http.StatusOK).body
	if !strings.Contains(open, "Not settled yet") || strings.Contains(open, `class="report-receipt"`) {
		t.Fatalf("the open evening's report does not say it is unsettled, or has a receipt:\n%s", open)
	}
	if !strings.Contains(open, "Jürgen") || !strings.Contains(open, "Åsa") || !strings.Contains(open, "2 deals") {
		t.Fatalf("the report lacks the players or the deals:\n%s", open)
	}

	closeAndCheck(t, h, id, `{}`)
	closed := mustStatus(t, do(t, h, "GET", "/g/"+id+"/report?lang=de", ""), http.StatusOK).body
	if strings.Contains(closed, "Noch nicht abgerechnet") || !strings.Contains(closed, `class="report-receipt"`) || !strings.Contains(closed, `svg class="qr"`) {
		t.Fatalf("the closed evening's report is not settled or has no receipt QR code:\n%s", closed)
	}
	srcs := imgSources(closed)
	if len(srcs) == 0 {
		t.Fatalf("no payment QR code on the report:\n%s", closed)
	}
	for _, src := range srcs {
		img := mustStatus(t, do(t, h, "GET", src, ""), http.StatusOK)
		if got := decodeQR(t, []byte(img.body)); !strings.HasPrefix(got, "BCD\n002\n1\nSCT\n\nBen Muster\nDE89370400440532013000\nEUR") {
			t.Errorf("%s reads %q, not an EPC payment to Ben", src, got)
		}
	}
	if page := mustStatus(t, do(t, h, "GET", "/g/"+id+"/close", ""), http.StatusOK).body; !strings.Contains(page, `href="/g/`+id+`/report"`) {
		t.Error("the closed evening's close page does not link the report")
	}

	if !strings.Contains(closed, `href="/g/`+id+`/report.png"`) {
		t.Error("the report does not offer its share image")
	}
	sharePNG(t, h, "/g/"+id+"/report.png")

	readID := mustStatus(t, do(t, h, "GET", "/api/games/"+id, ""), 200).json(t)["read_id"].(string)
	sharePNG(t, h, "/r/"+readID+"/report.png")
	ro := mustStatus(t, do(t, h, "GET", "/r/"+readID+"/report?lang=en", ""), http.StatusOK).body
	if len(imgSources(ro)) != 0 || strings.Contains(ro, "DE89") || strings.Contains(ro, id) {
		t.Fatalf("the read-only report shows a way to pay, or the writing id:\n%s", ro)
	}
	if !strings.Contains(ro, "pays Ben") {
		t.Fatalf("the read-only report does not say who pays whom:\n%s", ro)
	}
}

// A group's tab has its report too: what each member is owed and who
// pays whom, with the QR codes where a payee said how; through the
// group's read-only link without them.
func TestTabReport(t *testing.T) {
	h := newServer(t)
	gid := mustStatus(t, do(t, h, "POST", "/api/groups", `{"name":"Donnerstag","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`), 201).json(t)["id"].(string)
	mustStatus(t, do(t, h, "PUT", "/api/groups/"+gid+"/members/Anna/pay", `{"name":"Anna A","iban":"DE89370400440532013000"}`), http.StatusOK)
	game := mustStatus(t, do(t, h, "POST", "/api/games", `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"group":"`+gid+`"}`), 201).json(t)["id"].(string)
	playDeals(t, h, game, tappDeal("Anna", 70))
	closeAndCheck(t, h, game, `{}`)

	page := mustStatus(t, do(t, h, "GET", "/groups/"+gid+"/report?lang=en", ""), http.StatusOK).body
	if !strings.Contains(page, "Donnerstag") || !strings.Contains(page, "1 closed evening") || strings.Contains(page, "Not settled") {
		t.Fatalf("the tab's report:\n%s", page)
	}
	srcs := imgSources(page)
	if len(srcs) == 0 {
		t.Fatalf("no QR code on the tab's report:\n%s", page)
	}
	if got := decodeQR(t, []byte(mustStatus(t, do(t, h, "GET", srcs[0], ""), 200).body)); !strings.Contains(got, "DE89370400440532013000") {
		t.Errorf("the tab's QR code reads %q", got)
	}
	if tab := mustStatus(t, do(t, h, "GET", "/groups/"+gid+"/tab", ""), 200).body; !strings.Contains(tab, `href="/groups/`+gid+`/report"`) {
		t.Error("the tab does not link its report")
	}
	sharePNG(t, h, "/groups/"+gid+"/report.png")
	readID := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid, ""), 200).json(t)["read_id"].(string)
	sharePNG(t, h, "/r/"+readID+"/report.png")
	ro := mustStatus(t, do(t, h, "GET", "/r/"+readID+"/report", ""), http.StatusOK).body
	if len(imgSources(ro)) != 0 || !strings.Contains(ro, "Donnerstag") {
		t.Fatalf("the tab's read-only report:\n%s", ro)
	}
}
