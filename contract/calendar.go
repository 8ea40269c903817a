package contract

import (
	"fmt"
	"time"
)

// The Agoran calendar (ruling G1): all times UTC; a day starts 00:00, a week
// Monday 00:00, a month on the 1st 00:00.

// WeekStart is the Monday 00:00 UTC that starts t's Agoran week.
func WeekStart(t time.Time) time.Time {
	t = t.UTC()
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	off := (int(d.Weekday()) + 6) % 7 // Monday 0 .. Sunday 6
	return d.AddDate(0, 0, -off)
}

// NextWeekStart is the first Monday 00:00 UTC strictly after t.
func NextWeekStart(t time.Time) time.Time {
	return WeekStart(t).AddDate(0, 0, 7)
}

// DayStart is 00:00 UTC of t's day.
func DayStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// MonthStart is 00:00 UTC of the 1st of t's month.
func MonthStart(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, time.UTC)
}

// FirstFullWeek reports whether the week starting at Monday ws is the first full
// Agoran week of its month: its Monday is the first Monday on or after the 1st
// (ruling L6).
func FirstFullWeek(ws time.Time) bool {
	return WeekStart(ws).Day() <= 7
}

// WeekLabel names t's Agoran week as an ISO week, "2026-W50" (Agoran weeks are
// ISO weeks: Monday to Sunday).
func WeekLabel(t time.Time) string {
	y, w := t.UTC().ISOWeek()
	if y < 0 || y > 9999 {
		return fmt.Sprintf("%04d-W%02d", y, w)
	}
	// Asked for every message (each game's next round): written without
	// fmt, as fmt writes it.
	b := [8]byte{byte('0' + y/1000), byte('0' + y/100%10), byte('0' + y/10%10), byte('0' + y%10), '-', 'W', byte('0' + w/10), byte('0' + w%10)}
	return string(b[:])
}

// ParseWeekLabel returns the Monday that starts the labelled week.
func ParseWeekLabel(label string) (time.Time, error) {
	var y, w int
	if _, err := fmt.Sscanf(label, "%04d-W%02d", &y, &w); err != nil {
		return time.Time{}, fmt.Errorf("parse week %q: %w", label, err)
	}
	// ISO week 1 contains January 4th.
	jan4 := time.Date(y, 1, 4, 0, 0, 0, 0, time.UTC)
	return WeekStart(jan4).AddDate(0, 0, 7*(w-1)), nil
}

// Date formats a day as reports show it: "2002-08-05 (Mon)".
func Date(t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return t.UTC().Format("2006-01-02 (Mon)")
}

// Stamp formats an instant as reports and receipts show it: "2002-08-05 14:03".
func Stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02 15:04")
}
