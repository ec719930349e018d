package web

import (
	"net/http"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb/note"

	"tappbook/internal/tapp"
)

// api.md "Receipts": the receipt of a closed evening verifies with
// golang.org/x/mod/sumdb/note alone, given the server's verifier key, and
// says what the close settled; one byte changed and it no longer does. A
// reopened evening closed again gets a new receipt; the old one still
// verifies as what was settled then.
func TestReceiptVerifiesWithNoteAlone(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna Maria","Ben","Cleo","Dan"],"unit":"0.50","currency":"CHF"}`)
	playDeals(t, h, id, tappDeal("Anna Maria", 70))
	want := tapp.Messages().Conflict("conflict.receipt-open").Error()
	if r := do(t, h, "GET", "/api/games/"+id+"/receipt", ""); r.status != http.StatusConflict || !strings.Contains(strings.ToLower(r.body), strings.ToLower(want[1:])) {
		t.Fatalf("the receipt of an open evening: %d %s", r.status, r.body)
	}
	closeAndCheck(t, h, id, `{}`)

	vkey := mustStatus(t, do(t, h, "GET", "/api/receipt-key", ""), 200).body
	verifier, err := note.NewVerifier(strings.TrimSpace(vkey))
	if err != nil {
		t.Fatalf("the receipt key %q: %v", vkey, err)
	}
	known := note.VerifierList(verifier)
	first := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/receipt", ""), 200)
	n, err := note.Open([]byte(first.body), known)
	if err != nil {
		t.Fatalf("the receipt does not verify: %v\n%s", err, first.body)
	}
	events := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/events", ""), 200).jsonList(t)
	last := events[len(events)-1]
	readID := mustStatus(t, do(t, h, "GET", "/api/games/"+id, ""), 200).json(t)["read_id"].(string)
	if strings.Contains(n.Text, id) {
		t.Fatal("the receipt, which is shared, carries the id that writes to the game")
	}
	for _, line := range []string{
		"tappbook receipt v1\ngame " + readID + "\nevents 3\nhead " + last["hash"].(string) + "\nclosed ",
		"\ncurrency CHF\n\"Anna Maria\" 1.50\nBen -0.50\nCleo -0.50\nDan -0.50\n",
		"pay Ben \"Anna Maria\" 0.50\n",
	} {
		if !strings.Contains(n.Text, line) {
			t.Fatalf("the receipt says\n%s\nwant in it\n%s", n.Text, line)
		}
	}
	if len(n.Sigs) != 1 || n.Sigs[0].Name != verifier.Name() {
		t.Fatalf("signatures %+v, want one by %s", n.Sigs, verifier.Name())
	}
	// Through the read-only link: the same receipt.
	if r := mustStatus(t, do(t, h, "GET", "/api/r/"+readID+"/receipt", ""), 200); r.body != first.body {
		t.Fatal("the read-only link gives another receipt")
	}

	// Any one byte of the text changed, or one in the middle of the
	// signature: refused. (The base64 of the signature ends in padding
	// bits its decoder ignores, so not every last character matters.)
	text := strings.Index(first.body, "\n\n") + 1
	for _, i := range append(seq(text), text+len(first.body[text:])/2) {
		b := []byte(first.body)
		b[i] ^= 0x01
		if _, err := note.Open(b, known); err == nil {
			t.Fatalf("byte %d changed (%q), the receipt still verifies", i, b[i])
		}
	}

	mustStatus(t, do(t, h, "POST", "/api/games/"+id+"/reopen", `{"reason":"Anna Maria had 40"}`), 200)
	mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/receipt", ""), 409)
	mustStatus(t, do(t, h, "PUT", "/api/games/"+id+"/hands/1", tappDeal("Anna Maria", 40)), 200)
	closeAndCheck(t, h, id, `{}`)
	second := mustStatus(t, do(t, h, "GET", "/api/games/"+id+"/receipt", ""), 200)
	n2, err := note.Open([]byte(second.body), known)
	if err != nil {
		t.Fatalf("the new receipt does not verify: %v", err)
	}
	if !strings.Contains(n2.Text, "\nevents 6\n") || !strings.Contains(n2.Text, "\"Anna Maria\" -1.50\n") {
		t.Fatalf("the receipt after closing again:\n%s", n2.Text)
	}
	if _, err := note.Open([]byte(first.body), known); err != nil {
		t.Fatalf("the old receipt no longer verifies: %v", err)
	}
}

// The close page offers the receipt: a download, and the QR code of it.
func TestClosePageOffersTheReceipt(t *testing.T) {
	h := newServer(t)
	id := createGame(t, h, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	playDeals(t, h, id, tappDeal("Anna", 70))
	if strings.Contains(page(t, h, "/g/"+id+"/close", "en").body, "/receipt") {
		t.Fatal("the close page of an open evening offers a receipt")
	}
	closeAndCheck(t, h, id, `{}`)
	body := page(t, h, "/g/"+id+"/close", "sv").body
	if !strings.Contains(body, `href="/g/`+id+`/receipt"`) || !strings.Contains(body, "Det signerade kvittot som QR-kod") || !strings.Contains(body, `<svg class="qr"`) {
		t.Fatal("the close page of a closed evening offers no receipt to download and no QR code of it")
	}
	r := do(t, h, "GET", "/g/"+id+"/receipt", "")
	if r.status != 200 || !strings.HasPrefix(r.body, "tappbook receipt v1\n") {
		t.Fatalf("the receipt download: %d %q", r.status, r.body)
	}
}

func seq(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
