// Package protoimpl stands in for the names generated messages use.
package protoimpl

import "google.golang.org/protobuf/internal/impl"

type (
	MessageState  = impl.MessageState
	SizeCache     = int32
	UnknownFields = []byte
)
