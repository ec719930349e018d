package web

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	"tappbook/internal/events/sqlite"
	"tappbook/internal/game"
)

// The start page shows the addresses other phones join at, each with a QR
// code, in the reader's language; without any, it shows none.
func TestStartPageShowsJoinAddresses(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "j.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	urls := []string{"http://tappbook.local:8080", "http://192.168.1.20:8080"}
	h, err := New(game.New(st), slog.New(slog.NewTextHandler(io.Discard, nil)), Options{JoinURLs: func() []string { return urls }})
	if err != nil {
		t.Fatal(err)
	}
	body := page(t, h, "/", "de").body
	if !strings.Contains(visibleText(body), "Andere Telefone kommen hierüber dazu") {
		t.Fatalf("no joining section: %s", visibleText(body))
	}
	for _, u := range urls {
		if !strings.Contains(body, `href="`+u+`" class="link" data-join`) || !strings.Contains(body, `aria-label="QR-Code von `+u+`"`) {
			t.Fatalf("the start page lacks %s or its QR code", u)
		}
	}
	if n := strings.Count(body, `<svg class="qr"`); n != len(urls) {
		t.Fatalf("%d QR codes for %d addresses", n, len(urls))
	}
	if body := page(t, newServer(t), "/", "en").body; strings.Contains(body, "data-join") {
		t.Fatal("a server with no addresses shows some")
	}
}
