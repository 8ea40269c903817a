// Package mailout turns a finished referee mail into RFC 5322 bytes and hands
// them to an SMTP server.
//
// Input: a [Mail] (recipients, subject, plain-text body, threading headers,
// a deterministic Message-ID and Date chosen by the caller) for [Compose];
// composed bytes plus an envelope for [Sender.Send].
//
// Output: the same bytes for the same Mail (so a replay reproduces every
// outgoing message exactly), and a delivery error classified by
// [IsPermanent] so the caller knows whether to retry.
//
// It does not wrap or lay out text (the body's lines are the caller's job),
// decide who receives what, queue or retry mail, read the clock, or know
// anything of games.
package mailout
