package tinode

import "time"

// bucket is a topic's write-through budget (README "Scale"): a token
// bucket that fills at rate tokens a second and holds at most rate (one
// second's worth), from which every message takes one. A quiet topic's
// message that finds a token is written through: its SeqId and its
// sender's marks reach the table before Tinode's calls return, as on
// Tinode's SQL adapters. The first message that finds none makes the
// topic hot: from then on every message is kept and flushed at most once
// per coalesce_ms, and the topic stays hot until the bucket is full
// again (its rate fell below the budget for long enough: one second when
// it stops, rate/(rate-r) seconds at r messages a second). So a topic
// above the budget sends no write-through at all, and one below it
// sends every one. The clock is the table's (Options.Now), so a modeled
// test clock drives it.
type bucket struct {
	tokens float64
	at     time.Time
	hot    bool
	init   bool
}

// take reports whether a message at now is written through, and counts
// it.
func (b *bucket) take(now time.Time, rate float64) bool {
	if rate <= 0 {
		return false
	}
	if !b.init {
		b.tokens, b.at, b.init = rate, now, true
	}
	if d := now.Sub(b.at); d > 0 {
		b.tokens = min(rate, b.tokens+d.Seconds()*rate)
		b.at = now
	}
	if b.hot && b.tokens >= rate {
		b.hot = false
	}
	if !b.hot && b.tokens >= 1 {
		b.tokens--
		return true
	}
	b.hot = true
	b.tokens = max(0, b.tokens-1)
	return false
}
