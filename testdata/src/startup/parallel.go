package startup

import "sync"

// Shelf locks one title at a time: Lock(title) waits only for holders of
// the same title.
type Shelf interface {
	Lock(title string)
	Unlock(title string)
}

type Book struct {
	Title  string
	Author string
}

// Library is restored by its constructor with one goroutine per saved
// book, and the constructor waits for them all before it hands the
// library out: each worker has a book of its own, and no one else can
// reach the library yet. Afterwards every operation on a title holds
// that title's lock from shelf. Silent.
type Library struct {
	shelf Shelf
	mu    sync.RWMutex
	books map[string]*Book
	saved func() []Book
}

func NewLibrary(shelf Shelf, saved func() []Book) *Library {
	l := &Library{shelf: shelf, books: map[string]*Book{}, saved: saved}
	l.restore()
	return l
}

func (l *Library) restore() {
	var wg sync.WaitGroup
	for _, b := range l.saved() {
		wg.Add(1)
		go func(b Book) {
			defer wg.Done()
			if b.Author == "" {
				l.find(b.Title) // catalogued by title alone
				return
			}
			l.mu.RLock()
			_, ok := l.books[b.Title]
			l.mu.RUnlock()
			if ok {
				return
			}
			l.mu.Lock()
			l.books[b.Title] = &b
			l.mu.Unlock()
		}(b)
	}
	wg.Wait()
}

// find catalogues a title the first time it is asked for, in two
// sections: its callers hold the title's lock, or are the constructor's
// workers.
func (l *Library) find(title string) *Book {
	l.mu.RLock()
	b, ok := l.books[title]
	l.mu.RUnlock()
	if ok {
		return b
	}
	b = &Book{Title: title}
	l.mu.Lock()
	l.books[title] = b
	l.mu.Unlock()
	return b
}

func (l *Library) Lend(title string) *Book {
	l.shelf.Lock(title)
	defer l.shelf.Unlock(title)
	return l.find(title)
}

// Archive is Library again, but its constructor does not wait for the
// restoring workers: they run on after the archive is handed out, beside
// callers that hold a title's lock the workers never take. Reported.
type Archive struct {
	shelf Shelf
	mu    sync.RWMutex
	books map[string]*Book
	saved func() []Book
}

func NewArchive(shelf Shelf, saved func() []Book) *Archive {
	a := &Archive{shelf: shelf, books: map[string]*Book{}, saved: saved}
	a.restore()
	return a
}

func (a *Archive) restore() {
	for _, b := range a.saved() {
		go func(b Book) {
			a.mu.RLock()
			_, ok := a.books[b.Title]
			a.mu.RUnlock()
			if ok {
				return
			}
			a.mu.Lock() // want `a.mu is locked again for writing after RUnlock: a.books\[b.Title\] was missing under the read lock`
			a.books[b.Title] = &b
			a.mu.Unlock()
		}(b)
	}
}

func (a *Archive) find(title string) *Book {
	a.mu.RLock()
	b, ok := a.books[title]
	a.mu.RUnlock()
	if ok {
		return b
	}
	b = &Book{Title: title}
	a.mu.Lock() // want `a.mu is locked again for writing after RUnlock: b was missing under the read lock`
	a.books[title] = b
	a.mu.Unlock()
	return b
}

func (a *Archive) Lend(title string) *Book {
	a.shelf.Lock(title)
	defer a.shelf.Unlock(title)
	return a.find(title)
}

func (a *Archive) Borrow(title string) *Book {
	return a.find(title)
}

// Register is Library again, but its constructor catalogues a title
// itself while its workers run: the workers are not alone with the
// register, and a book catalogued in a worker's gap is replaced.
// Reported.
type Register struct {
	mu    sync.RWMutex
	books map[string]*Book
	saved func() []Book
}

func NewRegister(saved func() []Book) *Register {
	r := &Register{books: map[string]*Book{}, saved: saved}
	r.restore()
	return r
}

func (r *Register) restore() {
	var wg sync.WaitGroup
	for _, b := range r.saved() {
		wg.Add(1)
		go func(b Book) {
			defer wg.Done()
			r.mu.RLock()
			_, ok := r.books[b.Title]
			r.mu.RUnlock()
			if ok {
				return
			}
			r.mu.Lock() // want `r.mu is locked again for writing after RUnlock: r.books\[b.Title\] was missing under the read lock`
			r.books[b.Title] = &b
			r.mu.Unlock()
		}(b)
	}
	r.catalogue("index")
	wg.Wait()
}

func (r *Register) catalogue(title string) {
	r.mu.Lock()
	if _, ok := r.books[title]; !ok {
		r.books[title] = &Book{Title: title}
	}
	r.mu.Unlock()
}

// Depot is Library again, but its restore also starts a watcher it never
// waits for: the watcher's adds run beside the workers. Reported.
type Depot struct {
	mu      sync.RWMutex
	books   map[string]*Book
	saved   func() []Book
	arrived chan Book
}

func NewDepot(saved func() []Book) *Depot {
	d := &Depot{books: map[string]*Book{}, saved: saved, arrived: make(chan Book)}
	d.restore()
	return d
}

func (d *Depot) restore() {
	go func() {
		for b := range d.arrived {
			d.mu.Lock()
			d.books[b.Title] = &b
			d.mu.Unlock()
		}
	}()
	var wg sync.WaitGroup
	for _, b := range d.saved() {
		wg.Go(func() {
			d.mu.RLock()
			_, ok := d.books[b.Title]
			d.mu.RUnlock()
			if ok {
				return
			}
			d.mu.Lock() // want `d.mu is locked again for writing after RUnlock: d.books\[b.Title\] was missing under the read lock`
			d.books[b.Title] = &b
			d.mu.Unlock()
		})
	}
	wg.Wait()
}
