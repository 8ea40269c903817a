package mailhub

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Deliver puts raw into the INBOX of every recipient, as SMTP DATA does. An
// unknown address gets a new mailbox, and so does the sender: a player who
// wrote reads the lists from then on. A post to a configured list address
// is stored once with the list's List-Id and shows in every INBOX, the
// sender's included (Mailman's default "receive your own posts"). A
// mailbox reached twice by the same route gets one copy; reached directly
// and through a list, it gets both, as from a real list server. The
// INTERNALDATE is the hub's clock.
func (h *Hub) Deliver(from string, rcpts []string, raw []byte) error {
	if int64(len(raw)) > h.maxBytes {
		return fmt.Errorf("deliver: message of %d bytes exceeds %d", len(raw), h.maxBytes)
	}
	if len(rcpts) == 0 {
		return errors.New("deliver: no recipients")
	}
	var direct, lists []string
	var errs []error
	for _, r := range rcpts {
		key := normAddr(r)
		switch _, isList := h.lists[key]; {
		case key == "":
			errs = append(errs, fmt.Errorf("deliver to %q: bad address", r))
		case isList && !slices.Contains(lists, key):
			lists = append(lists, key)
		case !isList && !slices.Contains(direct, key):
			if err := h.mailbox(key); err != nil {
				errs = append(errs, err)
				continue
			}
			direct = append(direct, key)
		}
	}
	sender := normAddr(from)
	if sender != "" {
		if err := h.mailbox(sender); err != nil {
			errs = append(errs, err)
		}
	}

	body := toCRLF(raw)
	now := h.now()
	var notify []string
	st := h.store
	st.mu.Lock()
	if len(direct) > 0 {
		if uid, off, err := st.writeText(body); err != nil {
			errs = append(errs, fmt.Errorf("deliver: %w", err))
		} else {
			for _, to := range direct {
				m := &msg{uid: uid, off: off, size: int64(len(body)), t: now, rp: sender, to: to}
				if err := st.add(to, "INBOX", m); err != nil {
					errs = append(errs, fmt.Errorf("deliver to %s: %w", to, err))
					continue
				}
				notify = append(notify, to)
			}
		}
	}
	for _, l := range lists {
		b := h.listCopy(l, body)
		uid, off, err := st.writeText(b)
		var users []string
		if err == nil {
			users, err = st.post(uid, l, off, int64(len(b)), now)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("deliver to %s: %w", l, err))
			continue
		}
		notify = append(notify, users...)
	}
	st.mu.Unlock()
	for _, u := range notify {
		h.changed(u)
	}
	h.log.Debug("mail hub delivered", "from", from, "to", direct, "lists", lists, "bytes", len(body))
	return errors.Join(errs...)
}

// listCopy is a post as a list server resends it, with its List-Id and
// List-Post replaced (RFC 2919, RFC 2369).
func (h *Hub) listCopy(list string, msg []byte) []byte {
	var b bytes.Buffer
	b.Grow(len(msg) + 256)
	fmt.Fprintf(&b, "List-Id: %s\r\n", h.lists[list])
	fmt.Fprintf(&b, "List-Post: <mailto:%s>\r\n", list)
	b.Write(dropFields(msg, "List-Id", "List-Post"))
	return b.Bytes()
}

// toCRLF turns bare LF line endings into CRLF (RFC 5322 2.1), as IMAP
// clients expect.
func toCRLF(raw []byte) []byte {
	if !bytes.Contains(raw, []byte("\n")) || bytes.Count(raw, []byte("\n")) == bytes.Count(raw, []byte("\r\n")) {
		return raw
	}
	out := make([]byte, 0, len(raw)+len(raw)/32)
	for i, c := range raw {
		if c == '\n' && (i == 0 || raw[i-1] != '\r') {
			out = append(out, '\r')
		}
		out = append(out, c)
	}
	return out
}

// dropFields removes the named header fields, continuation lines included,
// from the header section of msg (which uses CRLF).
func dropFields(msg []byte, names ...string) []byte {
	end := bytes.Index(msg, []byte("\r\n\r\n"))
	if end < 0 {
		end = len(msg)
	} else {
		end += 2
	}
	head, body := msg[:end], msg[end:]
	var out bytes.Buffer
	out.Grow(len(msg))
	drop := false
	for len(head) > 0 {
		line := head
		if i := bytes.Index(head, []byte("\r\n")); i >= 0 {
			line = head[:i+2]
		}
		head = head[len(line):]
		if line[0] != ' ' && line[0] != '\t' {
			drop = false
			name, _, ok := bytes.Cut(line, []byte(":"))
			if ok {
				for _, n := range names {
					if strings.EqualFold(strings.TrimSpace(string(name)), n) {
						drop = true
					}
				}
			}
		}
		if !drop {
			out.Write(line)
		}
	}
	out.Write(body)
	return out.Bytes()
}
