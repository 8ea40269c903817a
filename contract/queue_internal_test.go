package contract

import (
	"strconv"
	"testing"
	"time"
)

// TestTimeQueueStaysSmall: the queues of the processed-message memory and
// of the receipt limits hold their live keys and at most about 1,024 spent
// ones beside them, however long the referee runs (a queue that only grew
// would keep every message ever seen), and give the keys back oldest
// first. Each step adds a key and takes the oldest, with 10 and with 3,000
// keys live.
func TestTimeQueueStaysSmall(t *testing.T) {
	t0 := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	at := func(i int) time.Time { return t0.Add(time.Duration(i) * time.Second) }
	for _, live := range []int{10, 3000} {
		var q timeQueue
		for i := 0; i < live; i++ {
			q.push(at(i), strconv.Itoa(i))
		}
		most := 0
		for i := live; i < live+20000; i++ {
			q.push(at(i), strconv.Itoa(i))
			it, ok := q.pop(at(i - live + 1))
			if !ok || it.key != strconv.Itoa(i-live) {
				t.Fatalf("%d live, step %d: took %q (%v), want %d", live, i, it.key, ok, i-live)
			}
			most = max(most, len(q.items))
		}
		if limit := 2*live + 1030; most > limit {
			t.Errorf("%d live: the queue held up to %d entries, more than %d", live, most, limit)
		}
	}
}
