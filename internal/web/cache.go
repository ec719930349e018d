package web

import (
	"container/list"
	"sync"
)

// pageCacheBytes bounds the rendered pages kept, all together: a table of a
// 6,000-deal evening with every deal shown is a few MB, so a handful of
// them fit; anything bigger is rendered every time.
const pageCacheBytes = 16 << 20

// pageKey is what a cached page depends on, and nothing else: a query
// parameter the page does not read must not make a new entry (300 junk
// parameters once kept 300 copies of a 3 MB page). The game's version is
// in it, so an entry is never stale: a change makes a new key. The theme
// is the reader's choice of colours ("" follows the phone's dark mode).
type pageKey struct {
	game    string // the game's id
	version int64
	view    string // the page and the query parameters it reads, e.g. "table?all"
	base    string // /g/{id} or /r/{read id}: the page links to it
	lang    string
	theme   string
}

// pageCache keeps rendered pages, least recently used first out, within a
// bound on their bytes. Every phone at the table refreshes the same page
// after a deal; it is rendered once.
type pageCache struct {
	mu    sync.Mutex
	limit int        // bytes of pages kept, at most
	size  int        // bytes of pages kept now
	order *list.List // front: most recently used
	items map[pageKey]*list.Element
	// newest: each page's newest version kept, by its key at version 0.
	// A page of an older version is let go when a newer one is kept: every
	// deal recorded makes the table's page anew, and nobody asks for the
	// old one again, so it would only make the heap larger until pushed out.
	newest map[pageKey]*list.Element
}

type cached struct {
	key  pageKey
	page []byte
}

func newPageCache(limit int) *pageCache {
	return &pageCache{limit: limit, order: list.New(), items: map[pageKey]*list.Element{}, newest: map[pageKey]*list.Element{}}
}

func (p *pageCache) get(key pageKey) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		return e.Value.(cached).page, true
	}
	return nil, false
}

// put keeps a copy of a page (the buffer it was rendered into is used
// again), letting the least recently used go until the bound holds. A
// page bigger than the whole bound is not kept at all.
func (p *pageCache) put(key pageKey, page []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		return
	}
	if len(page) > p.limit {
		return
	}
	page0 := key
	page0.version = 0
	if e, ok := p.newest[page0]; ok {
		if e.Value.(cached).key.version > key.version {
			return // a newer version is kept: this one is asked for no more
		}
		p.remove(e)
	}
	// What is kept is counted by the memory it holds: exactly its length
	// (bytes.Clone may round it up, and a buffer holds up to twice it).
	page = append(make([]byte, 0, len(page)), page...)
	e := p.order.PushFront(cached{key, page})
	p.items[key], p.newest[page0] = e, e
	p.size += cap(page)
	for p.size > p.limit {
		p.remove(p.order.Back())
	}
}

// remove lets a kept page go. Under p.mu.
func (p *pageCache) remove(e *list.Element) {
	c := e.Value.(cached)
	p.order.Remove(e)
	delete(p.items, c.key)
	page0 := c.key
	page0.version = 0
	if p.newest[page0] == e {
		delete(p.newest, page0)
	}
	p.size -= cap(c.page)
}

// stats gives how many pages are kept and their bytes.
func (p *pageCache) stats() (pages, bytes int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.order.Len(), p.size
}
