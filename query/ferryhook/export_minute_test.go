package ferryhook

import fh "github.com/singletable/singletable/entity/fh"

// AcceptEventIDs makes s mint only event IDs that accept approves (drawing
// again otherwise), for a test that places a small sample's events as a
// large population of random IDs would ([SpreadEventIDs] is one such
// rule). accept is called from the ingesting goroutine.
func AcceptEventIDs(s *Store, accept func(fh.EventID) bool) { s.acceptEventID = accept }
