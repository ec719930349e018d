package web

import (
	"bytes"
	"image/png"
	"net/http"
	"strings"
	"tappbook/internal/tapp"
	"testing"

	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
)

// decodeQR reads a QR code's text from a PNG with a decoder that knows
// nothing of how it was made.
func decodeQR(t testing.TB, b []byte) string {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not a PNG: %v", err)
	}
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		t.Fatal(err)
	}
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp, map[gozxing.DecodeHintType]any{gozxing.DecodeHintType_CHARACTER_SET: "UTF-8"})
	if err != nil {
		t.Fatalf("no QR code read: %v", err)
	}
	return res.GetText()
}

func eventCount(t *testing.T, h http.Handler, id string) int {
	t.Helper()
	r := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), http.StatusOK)
	return strings.Count(r.body, `"seq"`)
}

// An evening in EUR: Ben's solo wins, so Anna, Cleo and Dan each pay Ben
// 1.00; Ben gives his IBAN and PayPal name, and every transfer carries the
// EPC code and the PayPal link, paid and then confirmed.
func TestPayingAnEveningThroughTheAPI(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/hands", `{"contract":"solo","declarer":"Ben","points":70,"tricks":5}`), http.StatusCreated)

	before := eventCount(t, h, id)
	for body, says := range map[string]string{
		`{"name":"Ben Muster","iban":"DE88370400440532013000"}`: "check digits",
		`{"swish":"08-123 45 67"}`:                              "is not a Swish number",
		`{"paypal":"paypal.me/ben"}`:                            "has a slash",
	} {
		r := mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Ben/pay", body), http.StatusUnprocessableEntity)
		if !strings.Contains(r.body, says) {
			t.Errorf("%s: %s, want it to say %q", body, r.body, says)
		}
	}
	if n := eventCount(t, h, id); n != before {
		t.Fatalf("refused details stored %d events", n-before)
	}
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Nobody/pay", `{"paypal":"x"}`), http.StatusNotFound)

	kept := mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Ben/pay",
		`{"name":"Ben Muster","iban":"de89 3704 0044 0532 0130 00","paypal":"benmuster"}`), http.StatusOK).json(t)
	if kept["iban"] != "DE89370400440532013000" || kept["paypal"] != "benmuster" {
		t.Fatalf("kept %v", kept)
	}
	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/0/paid", `{"by":"Anna"}`), http.StatusConflict) // not closed yet

	closed := mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/close", `{}`), http.StatusOK).json(t)
	ts := closed["transfers"].([]any)
	if len(ts) != 3 {
		t.Fatalf("transfers %v", ts)
	}
	for i, x := range ts {
		tr := x.(map[string]any)
		pay, _ := tr["pay"].(map[string]any)
		if tr["to"] != "Ben" || tr["amount"] != "1.00" || tr["state"] != "open" || pay == nil {
			t.Fatalf("transfer %d: %v", i, tr)
		}
		want := "BCD\n002\n1\nSCT\n\nBen Muster\nDE89370400440532013000\nEUR1.00\n\n\ntappbook zuger "
		if epc, _ := pay["epc"].(string); !strings.HasPrefix(epc, want) || pay["paypal"] != "https://paypal.me/benmuster/1.00EUR" || pay["swish"] != nil || pay["qrbill"] != nil {
			t.Fatalf("transfer %d pays by %q", i, pay)
		}
		img := do(t, h, "GET", "/api/games/"+id+"/pay/"+string(rune('0'+i))+".png", "")
		if img.status != http.StatusOK || decodeQR(t, []byte(img.body)) != pay["epc"] {
			t.Fatalf("transfer %d: the PNG (%d) does not read as its EPC code", i, img.status)
		}
	}
	from := ts[0].(map[string]any)["from"].(string)
	mark := func(i, what, by string, status int) map[string]any {
		t.Helper()
		return mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/transfers/"+i+"/"+what, `{"by":"`+by+`"}`), status).json(t)
	}
	if r := mark("0", "paid", "Ben", http.StatusConflict); !strings.Contains(r["error"].(string), "only "+from+" can say it is sent, not Ben") {
		t.Errorf("paid by the payee: %v", r)
	}
	if st := mark("0", "paid", from, http.StatusOK)["transfers"].([]any)[0].(map[string]any)["state"]; st != "paid" {
		t.Errorf("state %v after paid", st)
	}
	mark("0", "confirmed", from, http.StatusConflict)
	if st := mark("0", "confirmed", "Ben", http.StatusOK)["transfers"].([]any)[0].(map[string]any)["state"]; st != "confirmed" {
		t.Errorf("state %v after confirmed", st)
	}
	if r := mark("0", "confirmed", "Ben", http.StatusConflict); !strings.Contains(r["error"].(string), "already said") {
		t.Errorf("confirmed twice: %v", r)
	}
	mark("9", "paid", from, http.StatusNotFound)
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/pay/9.png", ""), http.StatusNotFound)
	// {} removes the details: no way to pay is left.
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Ben/pay", `{}`), http.StatusOK)
	if tr := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/settlement", ""), http.StatusOK).json(t)["transfers"].([]any)[1].(map[string]any); tr["pay"] != nil {
		t.Errorf("removed details still pay: %v", tr)
	}
	if r := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/pay/1.png", ""), http.StatusNotFound).json(t); r["error"] != tapp.Messages().English("notfound.pay-way") {
		t.Errorf("a QR code with no way to pay: %v", r)
	}
}

// A group in CHF: Anna gives her IBAN and address as a member, the tab's
// transfers to her carry the Swiss QR-bill; a payment sent is confirmed by
// its payee only.
func TestPayingAGroupsTabThroughTheAPI(t *testing.T) {
	h := newServer(t)
	gid := createGroup(t, h, thursdayGroup)["id"].(string)
	ev := createGame(t, h, zugerEvening(gid, "Anna", "Ben", "Cleo", "Dan"))
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/hands", `{"contract":"solo","declarer":"Anna","points":70,"tricks":5}`), http.StatusCreated)
	mustStatus(t, do(t, h, "POST", "/api/games/"+ev+"/close", `{}`), http.StatusOK)
	mustStatus(t, do(t, h, "PUT", "/api/groups/"+gid+"/members/Anna/pay", `{"name":"Anna Muster","iban":"CH9300762011623852957"}`), http.StatusUnprocessableEntity)
	mustStatus(t, do(t, h, "PUT", "/api/groups/"+gid+"/members/Anna/pay",
		`{"name":"Anna Muster","iban":"CH9300762011623852957","address":{"street":"Bahnhofstrasse 1","postcode":"8000","town":"Zürich","country":"CH"}}`), http.StatusOK)

	tab := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t)
	tr := tab["transfers"].([]any)[0].(map[string]any)
	bill, _ := tr["pay"].(map[string]any)["qrbill"].(string)
	lines := strings.Split(bill, "\n")
	if len(lines) != 31 || lines[0] != "SPC" || lines[3] != "CH9300762011623852957" || lines[5] != "Anna Muster" || lines[18] != tr["amount"] || lines[19] != "CHF" || lines[27] != "NON" || !strings.HasPrefix(lines[29], "tappbook Thursday table ") {
		t.Fatalf("tab transfer %v: QR-bill %q", tr, lines)
	}
	img := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/pay/0.png", ""), http.StatusOK)
	if decodeQR(t, []byte(img.body)) != bill {
		t.Fatal("the tab's PNG does not read as its QR-bill")
	}
	// The evening's close uses the member's details too.
	if s := mustStatus(t, do(t, h, "GET", "/api/games/"+ev+"/settlement", ""), http.StatusOK).json(t); !strings.Contains(s["transfers"].([]any)[0].(map[string]any)["pay"].(map[string]any)["qrbill"].(string), "Anna Muster") {
		t.Fatalf("the evening does not use the member's details: %v", s)
	}

	p := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments", `{"from":"Ben","to":"Anna","amount":"1.00","state":"paid"}`), http.StatusCreated).json(t)
	if p["state"] != "paid" {
		t.Fatalf("payment %v", p)
	}
	if tab := mustStatus(t, do(t, h, "GET", "/api/groups/"+gid+"/tab", ""), http.StatusOK).json(t); len(tab["unconfirmed"].([]any)) != 1 {
		t.Fatalf("tab %v does not show the payment awaiting Anna", tab)
	}
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/1/confirm", `{"by":"Ben"}`), http.StatusConflict)
	c := mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/1/confirm", `{"by":"Anna"}`), http.StatusOK).json(t)
	if c["state"] != "confirmed" || c["confirmed_by"] != "Anna" {
		t.Fatalf("confirmed %v", c)
	}
	mustStatus(t, do(t, h, "POST", "/api/groups/"+gid+"/payments/1/confirm", `{"by":"Anna"}`), http.StatusConflict)
}

// How a player is paid is for the ones who pay: a read-only link's history
// (the API's, the download's, the audit page's) says whose details were
// given, never the IBAN, the address or the phone number.
func TestReadOnlyHistoryKeepsPayDetailsOut(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"],"unit":"0.50","currency":"EUR"}`)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/players/Ben/pay",
		`{"name":"Ben Muster","iban":"DE89370400440532013000","swish":"+46701234567","address":{"street":"Hauptstrasse 9","postcode":"8000","town":"Zürich","country":"CH"}}`), http.StatusOK)
	ro := do(t, h, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)

	if own := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), http.StatusOK); !strings.Contains(own.body, "DE89370400440532013000") {
		t.Fatalf("the evening's own history lost the details: %s", own.body)
	}
	for _, p := range []string{"/api/r/" + ro + "/events", "/r/" + ro + "/events.json", "/r/" + ro + "/audit"} {
		r := mustStatus(t, do(t, h, "GET", p, ""), http.StatusOK)
		for _, secret := range []string{"DE89", "Muster", "Hauptstrasse", "46701234567"} {
			if strings.Contains(r.body, secret) {
				t.Errorf("%s shows %q", p, secret)
			}
		}
		if !strings.Contains(r.body, "player.pay-set") && !strings.Contains(r.body, "Ben") {
			t.Errorf("%s does not say Ben gave details", p)
		}
	}
}
