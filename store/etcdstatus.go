package store

import (
	clientv3 "go.etcd.io/etcd/client/v3"
)

// status asks the member at ep how it is, within the store's timeout.
func (e *etcdEngine) status(ep string) (*clientv3.StatusResponse, error) {
	ctx, cancel := e.ctx()
	defer cancel()
	s, err := e.cli.Status(ctx, ep)
	if err != nil {
		return nil, e.etcdErr("status of "+ep, err)
	}
	return s, nil
}

// dbSizes returns the database sizes of the members the store connects
// to, added up and the largest.
func (e *etcdEngine) dbSizes() (total, largest int64, err error) {
	for _, ep := range e.cli.Endpoints() {
		s, err := e.status(ep)
		if err != nil {
			return 0, 0, err
		}
		total += s.DbSize
		largest = max(largest, s.DbSize)
	}
	return total, largest, nil
}
