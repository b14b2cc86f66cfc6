package listbackup

import (
	"context"

	"github.com/singletable/singletable/entity/lb"
	"github.com/singletable/singletable/table"
)

// Labels serves LB-73..LB-75: the named, coloured tags of ListBackup's
// own code and the entities they are put on.
type Labels struct {
	// ByID reads a label by ID (LB-73).
	//
	//	l, err := s.Labels.ByID.Get(ctx, lb.Label{TagID: id})
	ByID *table.Pattern[lb.Label]
	// ByAccount lists an account's labels by name (LB-73).
	ByAccount *table.Pattern[lb.Label]
	// OfEntity lists the labels put on an entity (LB-74).
	//
	//	page, err := s.Labels.OfEntity.List(ctx, lb.EntityTag{EntityType: "source", EntityID: id})
	OfEntity *table.Pattern[lb.EntityTag]
	// Tagged lists the entities carrying a label, by type then ID
	// (LB-75).
	Tagged *table.Pattern[lb.EntityTag]
	// Create stores a new label (LB-73, its write side).
	Create func(context.Context, *lb.Label) error
	// Tag puts a label on an entity (LB-74, its write side);
	// table.ErrAlreadyExists when the entity carries it already.
	Tag func(context.Context, *lb.EntityTag) error

	e *entities
}

func newLabels(e *entities) *Labels {
	return &Labels{e: e,
		Tag: table.Create(e.entityTags, table.WriteDef[lb.EntityTag]{ID: "LB-74", Name: "listbackup.Labels.Tag",
			Doc: "Puts a label on an entity."}),
		Create: table.Create(e.labels, table.WriteDef[lb.Label]{ID: "LB-73", Name: "listbackup.Labels.Create",
			Doc: "Stores a new label."}),
		ByID: table.NewPattern(e.labels, table.PatternDef[lb.Label]{ID: "LB-73", Name: "listbackup.Labels.ByID",
			Doc: "A label by ID.", Reads: table.ReadOne}),
		ByAccount: table.NewPattern(e.labels, table.PatternDef[lb.Label]{ID: "LB-73", Name: "listbackup.Labels.ByAccount",
			Doc: "An account's labels, by name.", Reads: table.ReadPage, Index: table.GSI1}),
		OfEntity: table.NewPattern(e.entityTags, table.PatternDef[lb.EntityTag]{ID: "LB-74", Name: "listbackup.Labels.OfEntity",
			Doc: "The labels put on an entity.", Reads: table.ReadPage,
			Check: func(t *lb.EntityTag) error {
				return first(lb.CheckID("entityType", t.EntityType), lb.CheckID("entityId", t.EntityID))
			}}),
		Tagged: table.NewPattern(e.entityTags, table.PatternDef[lb.EntityTag]{ID: "LB-75", Name: "listbackup.Labels.Tagged",
			Doc: "The entities carrying a label, by type then ID.", Reads: table.ReadPage, Index: table.GSI1, WholePartition: true}),
	}
}
