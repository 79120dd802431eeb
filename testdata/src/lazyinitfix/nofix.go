package lazyinitfix

// ForShadowed tests the copy again inside a block that declares its own
// r: the re-read would mean another map there, so no fix is offered.
func (r *Routes) ForShadowed(host string, routes map[string]*Route) *Route {
	r.mu.RLock()
	rt, ok := r.routes[host]
	r.mu.RUnlock()
	if ok {
		return rt
	}
	r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: ok, set from r.routes\[host\] under the read lock, is tested again under the write lock`
	defer r.mu.Unlock()
	{
		r := routes
		if ok {
			return rt
		}
		_ = r
	}
	rt = &Route{host: host}
	r.routes[host] = rt
	return rt
}
