// Package mailhub is the embedded mail hub: an in-process IMAP server and
// SMTP server on 127.0.0.1, so the referee can be tried with any mail client
// and no mail server, and tested end to end in milliseconds.
//
// Input: SMTP submissions (any AUTH PLAIN or LOGIN credentials, or none),
// direct [Hub.Deliver] calls, and IMAP logins (any user and password).
//
// Output: messages in INBOXes kept on disk under Options.Dir, with
// Return-Path, Delivered-To and Received prepended as a delivering MTA
// would, and List-Id added to every copy of a post to a configured list
// address. A list post is stored once and shows in every INBOX that exists
// when it comes, the sender's included, as Mailman delivers to all its
// members: the mailboxes made at start (Options.Users: the referee, the
// contestmasters, the players the game knows), by a login, by mail to an
// address or by mail from it. IMAP IDLE sessions see new mail at once.
//
// A restart on the same directory finds every mailbox as it was: its
// messages, UIDs, UIDVALIDITY, flags and subscriptions, so an IMAP
// client's checkpoint (UIDVALIDITY, last UID) stays good. Memory holds a
// short record per list post and the mailboxes' names, not their mail: a
// mailbox is read from disk while a session has it selected, and message
// text on each FETCH.
// Files are written whole before they are shown, and are not fsynced: mail
// survives the hub being killed, not the machine losing power.
//
// A login or a message for an unknown address creates its mailbox, so a
// new player can just start. The hub does not relay mail elsewhere,
// bounce, sign or check DKIM, enforce SMTPUTF8 rules, reclaim the space of
// expunged messages, or emulate the notification delay of a real IMAP
// server. It is for local use only: it authenticates nobody.
package mailhub
