package web

import (
	"container/list"
	"sync"
)

// pageCache keeps rendered pages by a key that includes the game's version,
// so an entry is never stale: a change makes a new key. Every phone at the
// table refreshes the same page after a deal; it is rendered once.
type pageCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // front: most recently used key
	items map[string]*list.Element
}

type cached struct {
	key  string
	page []byte
}

func newPageCache(max int) *pageCache {
	return &pageCache{max: max, order: list.New(), items: map[string]*list.Element{}}
}

func (p *pageCache) get(key string) ([]byte, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		return e.Value.(cached).page, true
	}
	return nil, false
}

func (p *pageCache) put(key string, page []byte) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if e, ok := p.items[key]; ok {
		p.order.MoveToFront(e)
		return
	}
	p.items[key] = p.order.PushFront(cached{key, page})
	for p.order.Len() > p.max {
		last := p.order.Back()
		p.order.Remove(last)
		delete(p.items, last.Value.(cached).key)
	}
}
