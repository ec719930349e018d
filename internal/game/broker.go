package game

import "sync"

// broker tells whoever follows a game live that it changed: each follower
// gets the game's newest version, and a slow one misses only versions that
// a newer one replaces.
type broker struct {
	mu   sync.Mutex
	subs map[string]map[chan int64]struct{}
}

func (b *broker) subscribe(id string) (<-chan int64, func()) {
	ch := make(chan int64, 1)
	b.mu.Lock()
	if b.subs == nil {
		b.subs = map[string]map[chan int64]struct{}{}
	}
	if b.subs[id] == nil {
		b.subs[id] = map[chan int64]struct{}{}
	}
	b.subs[id][ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs[id], ch)
		if len(b.subs[id]) == 0 {
			delete(b.subs, id)
		}
		b.mu.Unlock()
	}
}

func (b *broker) publish(id string, version int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[id] {
		select {
		case <-ch: // drop the older version not yet read
		default:
		}
		ch <- version
	}
}

// Follow gives a channel that receives the game's version after every
// change, and a function to stop following.
func (s *Service) Follow(id string) (<-chan int64, func()) { return s.live.subscribe(id) }
