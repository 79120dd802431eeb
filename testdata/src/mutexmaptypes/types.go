// Package mutexmaptypes stands in for an API machinery package: object
// identifiers of a named string type, and the objects carrying them.
package mutexmaptypes

// UID identifies an object for its whole life.
type UID string

// ObjectMeta is the metadata every object carries.
type ObjectMeta struct {
	Name      string
	Namespace string
	UID       UID
}

// Service is a load-balanced service.
type Service struct {
	ObjectMeta
	Ports []int32
}

// Node is a machine of the cluster.
type Node struct {
	ObjectMeta
	Ready bool
}
