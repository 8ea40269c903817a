package mailhub

import "sync"

// watchers signals IDLE sessions that a user's mailboxes changed.
type watchers struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{} // user -> signal channels
}

// subscribe returns a channel that receives a signal after each change to
// user's mailboxes, and a function to unsubscribe.
func (h *Hub) subscribe(user string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.watch.mu.Lock()
	if h.watch.subs == nil {
		h.watch.subs = map[string]map[chan struct{}]struct{}{}
	}
	if h.watch.subs[user] == nil {
		h.watch.subs[user] = map[chan struct{}]struct{}{}
	}
	h.watch.subs[user][ch] = struct{}{}
	h.watch.mu.Unlock()
	return ch, func() {
		h.watch.mu.Lock()
		delete(h.watch.subs[user], ch)
		if len(h.watch.subs[user]) == 0 {
			delete(h.watch.subs, user)
		}
		h.watch.mu.Unlock()
	}
}

// changed signals every IDLE session of user; a pending signal is enough,
// so a full channel is skipped.
func (h *Hub) changed(user string) {
	h.watch.mu.Lock()
	defer h.watch.mu.Unlock()
	for ch := range h.watch.subs[user] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
