// Package mailin turns mailboxes and archives into parsed, classified messages.
// It knows nothing of games.
//
// Input: raw RFC 5322 messages, read from an IMAP mailbox ([IMAPConfig.Run],
// [OpenIMAPArchive]) or from stored mail ([OpenArchive]: mbox, Maildir or a
// single .eml file).
//
// Output: a [Message] per raw message ([Parse]): the real sender (behind a
// Mailman DMARC rewrite), the lists it came through and its [Class] (ruling
// G4), the outcome of the configured sender-authentication policy, and the
// body text that counts (ruling G3: quotes, attributions, Outlook blocks and
// signatures removed), normalised from whatever MIME shape the client used.
//
// What it does not do: interpret the text, dedupe by Message-ID, persist
// checkpoints, read passwords, or send mail. Malformed mail degrades to the
// text that could be read, with a note in [Message.Notes]; Parse returns an
// error only when there is nothing to read at all.
package mailin
