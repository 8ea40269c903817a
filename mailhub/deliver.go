package mailhub

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
)

// Deliver puts raw into the INBOX of every recipient, as SMTP DATA does. An
// unknown address gets a new mailbox; a configured list address fans out
// to every known mailbox, the sender's included (created if need be), each
// copy with the list's List-Id. A mailbox reached twice by the same route
// gets one copy; reached directly and through a list, it gets both, as
// from a real list server. The INTERNALDATE is the hub's clock.
func (h *Hub) Deliver(from string, rcpts []string, raw []byte) error {
	if int64(len(raw)) > h.maxBytes {
		return fmt.Errorf("deliver: message of %d bytes exceeds %d", len(raw), h.maxBytes)
	}
	if len(rcpts) == 0 {
		return errors.New("deliver: no recipients")
	}
	type target struct{ addr, list string }
	var targets []target
	seen := map[target]bool{}
	add := func(t target) {
		if !seen[t] {
			seen[t] = true
			targets = append(targets, t)
		}
	}
	var errs []error
	for _, r := range rcpts {
		key := normAddr(r)
		if key == "" {
			errs = append(errs, fmt.Errorf("deliver to %q: bad address", r))
			continue
		}
		if _, isList := h.lists[key]; isList {
			// Mailman delivers a post to the poster too (its default
			// "receive your own posts").
			if sender := normAddr(from); sender != "" {
				if _, err := h.mailbox(sender, true); err != nil {
					errs = append(errs, err)
				}
			}
			for _, m := range h.members() {
				add(target{m, key})
			}
			continue
		}
		if _, err := h.mailbox(key, true); err != nil {
			errs = append(errs, err)
			continue
		}
		add(target{key, ""})
	}

	msg := toCRLF(raw)
	now := h.now()
	for _, t := range targets {
		u, err := h.mailbox(t.addr, false)
		if err != nil || u == nil {
			errs = append(errs, fmt.Errorf("deliver to %s: mailbox vanished", t.addr))
			continue
		}
		b := h.envelope(from, t.addr, t.list, msg, now)
		// *bytes.Reader has Size(), so it is an imap.LiteralReader; the
		// memserver's tracker sends "* n EXISTS" to every IDLE session.
		if _, err := u.Append("INBOX", bytes.NewReader(b), &imap.AppendOptions{Time: now}); err != nil {
			errs = append(errs, fmt.Errorf("deliver to %s: %w", t.addr, err))
			continue
		}
		h.changed(t.addr)
		h.log.Debug("mail hub delivered", "from", from, "to", t.addr, "list", t.list, "bytes", len(b))
	}
	return errors.Join(errs...)
}

// envelope prepends the trace fields a delivering MTA adds (RFC 5321 4.4:
// Return-Path, Received; Delivered-To as Postfix and Dovecot write it) and,
// for a list copy, replaces List-Id and List-Post (RFC 2919, RFC 2369) as a
// list server does.
func (h *Hub) envelope(from, to, list string, msg []byte, now time.Time) []byte {
	var b bytes.Buffer
	b.Grow(len(msg) + 512)
	returnPath := normAddr(from)
	if list != "" {
		// A list server resends with its own bounce address.
		local, domain, _ := strings.Cut(list, "@")
		returnPath = local + "-bounces@" + domain
	}
	fmt.Fprintf(&b, "Return-Path: <%s>\r\n", returnPath)
	fmt.Fprintf(&b, "Delivered-To: %s\r\n", to)
	fmt.Fprintf(&b, "Received: by %s (referee mail hub) for <%s>;\r\n %s\r\n",
		Hostname, to, now.UTC().Format(time.RFC1123Z)) // date-time, RFC 5322 3.3
	if list != "" {
		fmt.Fprintf(&b, "List-Id: %s\r\n", h.lists[list])
		fmt.Fprintf(&b, "List-Post: <mailto:%s>\r\n", list)
		msg = dropFields(msg, "List-Id", "List-Post")
	}
	b.Write(msg)
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
