package mailin

import (
	"context"
	"fmt"
	"io"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// OpenIMAPArchive reads a folder read-only (EXAMINE, RFC 3501 §6.3.2) as an
// Archive, in UID order, arrival = INTERNALDATE. Messages are fetched a few
// at a time as Next is called. Nothing is flagged or moved.
func OpenIMAPArchive(ctx context.Context, cfg *IMAPConfig) (Archive, error) {
	cl, err := cfg.connect(ctx, nil)
	if err != nil {
		return nil, err
	}
	if err := wait(ctx, cl, func() error {
		_, err := cl.Select(cfg.mailbox(), &imap.SelectOptions{ReadOnly: true}).Wait()
		return err
	}); err != nil {
		cl.Close()
		return nil, fmt.Errorf("examine %s: %w", cfg.mailbox(), err)
	}
	uids, err := newUIDs(ctx, cl, 0)
	if err != nil {
		cl.Close()
		return nil, err
	}
	return &imapArchive{ctx: ctx, cl: cl, uids: uids}, nil
}

type imapArchive struct {
	ctx  context.Context
	cl   *imapclient.Client
	uids []imap.UID
	buf  []*Raw
}

func (a *imapArchive) Next() (*Raw, error) {
	for len(a.buf) == 0 {
		if len(a.uids) == 0 {
			return nil, io.EOF
		}
		n := min(len(a.uids), batchSize)
		raws, err := fetch(a.ctx, a.cl, a.uids[:n])
		if err != nil {
			return nil, err
		}
		a.uids = a.uids[n:]
		a.buf = raws
	}
	r := a.buf[0]
	a.buf = a.buf[1:]
	return r, nil
}

func (a *imapArchive) Close() error {
	_ = wait(a.ctx, a.cl, func() error { return a.cl.Logout().Wait() })
	return a.cl.Close()
}
