package mailhub

import (
	"net"
	"sort"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// Mailbox returns the raw messages in addr's INBOX, oldest first, as an
// IMAP client would fetch them (so moves and expunges are reflected). An
// unknown address gives nil and creates nothing. For tests and for
// inspecting a demo; failures are logged and give nil.
func (h *Hub) Mailbox(addr string) [][]byte {
	h.store.mu.Lock()
	known := h.store.users[normAddr(addr)]
	h.store.mu.Unlock()
	if !known {
		return nil
	}
	msgs, err := h.fetchInbox(normAddr(addr))
	if err != nil {
		h.log.Warn("mail hub mailbox read failed", "addr", addr, "err", err)
		return nil
	}
	return msgs
}

// fetchInbox reads INBOX over the hub's own IMAP server, read-only
// (EXAMINE, BODY.PEEK[]: no \Seen is set, RFC 3501 6.3.2, 6.4.5).
func (h *Hub) fetchInbox(user string) ([][]byte, error) {
	c, err := imapclient.DialInsecure(h.IMAPAddr(), &imapclient.Options{
		Dialer: &net.Dialer{Timeout: 10 * time.Second},
	})
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(user, "").Wait(); err != nil {
		return nil, err
	}
	sel, err := c.Select("INBOX", &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil {
		return nil, err
	}
	out := [][]byte{}
	if sel.NumMessages == 0 {
		return out, c.Logout().Wait()
	}
	body := &imap.FetchItemBodySection{Peek: true}
	var all imap.SeqSet
	all.AddRange(1, 0) // 1:*
	msgs, err := c.Fetch(all, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{body}}).Collect()
	if err != nil {
		return nil, err
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].SeqNum < msgs[j].SeqNum })
	for _, m := range msgs {
		out = append(out, m.FindBodySection(body))
	}
	return out, c.Logout().Wait()
}
