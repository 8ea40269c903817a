package life

import (
	"fmt"
	"testing"
)

func TestFlowPrint(t *testing.T) {
	h := newHarness(t, "2026-11-10T10:00:00Z")
	r := h.Public("2026-11-10T10:05:00Z", alice, "I join the Life contest.")
	fmt.Println(r.Body)
	r = h.Public("2026-11-10T10:06:00Z", alice, "I transfer a Vial of Primordial Ooze to the Life contest to take control of Cell (12, 34).\nI claim cell (13,34) in Life.\nI claim cells (14, 34) and (12,34) in Life.")
	fmt.Println(r.Body)
	r = h.Public("2026-11-10T10:07:00Z", bob, "I become a contestant of Life.\nI transfer 3 Vials to Alice.\nI transfer 2 Vials of Primordial Ooze to Carol.")
	fmt.Println(r.Body)
	r = h.Public("2026-11-10T10:08:00Z", alice, "I suggest the following change to the Life regulations:\nSELECT original\n\nI consent to suggestion #1 in Life.")
	fmt.Println(r.Body)
	for _, n := range h.Advance("2026-11-16T00:00:00Z") {
		fmt.Println(n.Subject, "\n", n.Body)
	}
}
