package consumers

import "sync"

// A stream consumer that subscribes again after every reset. Its loop is a
// function literal, so Go keeps the receiver in a cell the literal reads
// each time it names c. The cell is assigned once, before the literal is
// made: reading it is not reading shared state, and it must not count as
// the stale read. The method form (resubscribeLoop) is judged the same.

type subscription struct{ serial int }

func subscribe(serial int) (*subscription, error) { return &subscription{serial: serial}, nil }

type streamConsumer struct {
	sync.Mutex
	serial    int
	delivered int
	current   *subscription
	resets    chan struct{}
}

// Start resubscribes with the serial of the moment; the subscription it
// stores is the result of a call, not a value computed from the serial.
func (c *streamConsumer) Start() {
	go func() {
		for range c.resets {
			c.Lock()
			serial := c.serial
			c.Unlock()
			if s, err := subscribe(serial); err == nil {
				c.Lock()
				c.current = s
				c.Unlock()
			}
		}
	}()
}

// resubscribeLoop is Start's loop written as a method.
func (c *streamConsumer) resubscribeLoop() {
	for range c.resets {
		c.Lock()
		serial := c.serial
		c.Unlock()
		if s, err := subscribe(serial); err == nil {
			c.Lock()
			c.current = s
			c.Unlock()
		}
	}
}

// Run starts the method form.
func (c *streamConsumer) Run() { go c.resubscribeLoop() }

// Reset moves to the next serial.
func (c *streamConsumer) Reset() {
	c.Lock()
	c.serial++
	c.Unlock()
}

// Ack counts deliveries from a literal too, but reads the count in one
// section and stores count+1 in the next: an Ack in between is lost. The
// receiver's cell is no read; the count is.
func (c *streamConsumer) Ack(done chan<- struct{}) {
	go func() {
		c.Lock()
		n := c.delivered
		c.Unlock()
		c.Lock() // want `c is locked again after the section that checked: the value written derives from n, read in an earlier section; an update made in between is lost`
		c.delivered = n + 1
		c.Unlock()
		done <- struct{}{}
	}()
}
