// Package mailhub is the embedded mail hub: an in-process IMAP server and
// SMTP server on 127.0.0.1, so the referee can be tried with any mail client
// and no mail server, and tested end to end in milliseconds.
//
// Input: SMTP submissions (any AUTH PLAIN or LOGIN credentials, or none),
// direct [Hub.Deliver] calls, and IMAP logins (any user and password).
//
// Output: messages in in-memory INBOXes, with Return-Path, Delivered-To and
// Received prepended as a delivering MTA would, and List-Id added to every
// copy of a post to a configured list address, which fans out to every
// mailbox the hub knows, the sender's included, as Mailman does. IMAP IDLE
// sessions see new mail at once.
//
// A login or a message for an unknown address creates its mailbox, so a new
// player can just start. The hub does not persist anything, relay mail
// elsewhere, bounce, sign or check DKIM, enforce SMTPUTF8 rules, or emulate
// the notification delay of a real IMAP server. It is for local use only:
// it authenticates nobody.
package mailhub
