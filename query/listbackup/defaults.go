package listbackup

import "github.com/singletable/singletable/entity/lb"

// newID and orDefault are the defaults a declared Create's Before
// (table.WriteDef) sets:
//
//	Before: func(n *lb.Notification) { newID(&n.NotificationID); orDefault(&n.Status, lb.NotificationPending) },

// newID sets *id to a new UUID when it is empty: the ID a Create gives
// an item the caller did not name.
func newID[ID ~string](id *ID) {
	if *id == "" {
		*id = ID(lb.NewUUID())
	}
}

// orDefault sets *v to def when it is empty: a first status, a priority.
func orDefault[V ~string](v *V, def V) {
	if *v == "" {
		*v = def
	}
}
