package web

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// The cache never holds more bytes than its bound, whatever sizes come in;
// a page bigger than the bound is not kept; the most recently used stay.
func TestPageCacheBoundInBytes(t *testing.T) {
	const limit = 10_000
	c := newPageCache(limit)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 2_000 {
		key := pageKey{game: "g", version: int64(i % 300), view: "table", lang: "en"}
		c.put(key, make([]byte, rng.IntN(3_000)))
		pages, bytes := c.stats()
		if bytes > limit {
			t.Fatalf("after %d puts: %d bytes kept, over the bound of %d", i+1, bytes, limit)
		}
		sum := 0
		for _, e := range c.items {
			sum += cap(e.Value.(cached).page)
		}
		if sum != bytes || len(c.items) != pages {
			t.Fatalf("the cache counts %d pages and %d bytes, but holds %d and %d", pages, bytes, len(c.items), sum)
		}
	}

	big := pageKey{game: "big", view: "table"}
	c.put(big, make([]byte, limit+1))
	if _, ok := c.get(big); ok {
		t.Fatal("a page bigger than the whole bound was kept")
	}
	if _, bytes := c.stats(); bytes == 0 {
		t.Fatal("a page too big to keep emptied the cache")
	}

	small := newPageCache(300)
	a, b, d := pageKey{game: "a"}, pageKey{game: "b"}, pageKey{game: "d"}
	small.put(a, make([]byte, 100))
	small.put(b, make([]byte, 100))
	small.get(a) // a is now used more recently than b
	small.put(d, make([]byte, 150))
	if _, ok := small.get(b); ok {
		t.Fatal("the least recently used page was kept over the bound")
	}
	if _, ok := small.get(a); !ok {
		t.Fatal("a recently used page was let go")
	}
}

// A page kept for a newer version of its game lets the older one go: given
// the table at version 1 kept, when version 2 is kept, then version 1 is
// gone and its bytes with it; a late render of version 1 keeps nothing;
// another language's page of version 1 stays, being another page.
func TestPageCacheKeepsTheNewestVersionOfAPage(t *testing.T) {
	c := newPageCache(1 << 20)
	v1, v2 := pageKey{game: "g", version: 1, view: "table", lang: "en"}, pageKey{game: "g", version: 2, view: "table", lang: "en"}
	de1 := pageKey{game: "g", version: 1, view: "table", lang: "de"}
	c.put(v1, make([]byte, 100))
	c.put(de1, make([]byte, 100))
	c.put(v2, make([]byte, 200))
	if _, ok := c.get(v1); ok {
		t.Fatal("version 1 of the page is still kept beside version 2")
	}
	if pages, bytes := c.stats(); pages != 2 || bytes != 300 {
		t.Fatalf("%d pages of %d bytes kept, want 2 of 300", pages, bytes)
	}
	c.put(v1, make([]byte, 100))
	if _, ok := c.get(v1); ok {
		t.Fatal("a late render of version 1 was kept beside version 2")
	}
	if _, ok := c.get(de1); !ok {
		t.Fatal("the German page of version 1 was let go for the English one of version 2")
	}
}

// Query parameters the table does not read share one cache entry, through
// the game's link and through the read-only link alike; the page shows none
// of them.
func TestTableCacheIgnoresJunkQueries(t *testing.T) {
	srv := newServerF(t).(*Server)
	id := createGame(t, srv, `{"variant":"zuger","players":["Anna","Ben","Cleo","Dan"]}`)
	for range 25 {
		if r := do(t, srv, "POST", "/api/games/"+id+"/hands", `{"contract":"tapp","declarer":"Anna","points":70,"tricks":5}`); r.status != http.StatusCreated {
			t.Fatalf("record: %d %s", r.status, r.body)
		}
	}
	ro := do(t, srv, "GET", "/api/games/"+id, "").json(t)["read_id"].(string)
	var first string
	for i := range 300 {
		r := page(t, srv, fmt.Sprintf("/r/%s?all=1&n=%d", ro, i), "en")
		if r.status != http.StatusOK {
			t.Fatalf("read-only table: %d", r.status)
		}
		if strings.Contains(r.body, fmt.Sprintf("n=%d", i)) {
			t.Fatalf("the page shows the junk parameter n=%d", i)
		}
		if i == 0 {
			first = r.body
		} else if r.body != first {
			t.Fatalf("request %d got another page than the first", i)
		}
	}
	if pages, _ := srv.pages.stats(); pages != 1 {
		t.Fatalf("300 requests differing only in a junk parameter made %d cache entries, not 1", pages)
	}
	for i := range 50 {
		page(t, srv, fmt.Sprintf("/g/%s?x=%d", id, i), "en")
		page(t, srv, fmt.Sprintf("/g/%s?all=yes&y=%d", id, i), "de")
		// A deal the game does not have is no deal to mark.
		page(t, srv, fmt.Sprintf("/g/%s?saved=%d&undone=%d", id, 1000+i, 2000+i), "en")
	}
	// The read-only all-deals page, and the game's own short and all-deals
	// pages (the second in German): three pages.
	if pages, _ := srv.pages.stats(); pages != 3 {
		t.Fatalf("two more distinct pages behind junk parameters made %d cache entries in all, not 3", pages)
	}
	if short := page(t, srv, "/g/"+id+"?junk=1", "en").body; !strings.Contains(short, "Show all 25 deals") || strings.Contains(short, "junk") {
		t.Fatal("the short table lost its all-deals link or shows the junk parameter")
	}
}

// The cache keeps a copy: the buffer the page was rendered into is
// written again by the next page.
func TestPageCacheKeepsACopy(t *testing.T) {
	c := newPageCache(1 << 10)
	buf := bytes.NewBufferString("<p>deal 1</p>")
	key := pageKey{game: "g", view: "table"}
	c.put(key, buf.Bytes())
	buf.Reset()
	buf.WriteString("<p>deal 2</p>")
	if page, _ := c.get(key); string(page) != "<p>deal 1</p>" {
		t.Fatalf("kept %q, want the page as it was put", page)
	}
}
